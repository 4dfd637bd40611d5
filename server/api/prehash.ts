/**
 * The passwords a request's writes carry, hashed side by side before its transaction opens
 * (auth/prehashed.ts): a batch of N new passwords then costs about N hashes ÷ the cores,
 * not N hashes, and the transaction does not wait on hashing. A write whose key already has
 * a stored reply will be answered from it: its password is not hashed again.
 */
import { type EntityDescription, wireName } from '../../src/contract/entity';
import { isPasswordPlaceholder } from '../../src/contract/password-placeholder';
import type { WireBody } from '../../src/contract/validation';
import { Prehashed } from '../auth/prehashed';
import type { Database } from '../db';
import type { ApiRoute } from '../entities/handler';
import { storedReplies } from './idempotency';

interface Write {
  route: ApiRoute;
  key?: string;
  adminId: number;
  body: WireBody;
}

/** The new passwords in a write's body, as validation will read them (trimmed, not the placeholder). */
function passwordsOf(entity: EntityDescription | undefined, body: WireBody): string[] {
  const out: string[] = [];
  for (const spec of Object.values(entity?.fields ?? {})) {
    if (spec.kind !== 'password') continue;
    const wires = new Set([wireName(spec, 'add'), wireName(spec, 'update')]);
    for (const wire of wires) {
      const raw = wire === undefined ? undefined : body[wire];
      const value = typeof raw === 'string' ? raw.trim() : '';
      if (value !== '' && !isPasswordPlaceholder(value)) out.push(value);
    }
  }
  return out;
}

/** The hashes of the passwords `writes` will store, all derived; null when they store none. */
export async function prehashPasswords(db: Database, writes: readonly Write[]): Promise<Prehashed | null> {
  const carrying = writes
    .filter((w) => w.route.writes)
    .map((w) => ({ key: w.key, passwords: passwordsOf(w.route.entity, w.body) }))
    .filter((w) => w.passwords.length > 0);
  if (carrying.length === 0) return null;
  const keys = carrying.flatMap((w) => (w.key === undefined ? [] : [w.key]));
  const stored = await storedReplies(db.query, writes[0].adminId, keys);
  const passwords = carrying
    .filter((w) => w.key === undefined || !stored.has(w.key))
    .flatMap((w) => w.passwords);
  if (passwords.length === 0) return null;
  const prehashed = new Prehashed(passwords);
  await prehashed.ready();
  return prehashed;
}
