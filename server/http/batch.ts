/**
 * The batch extension (src/contract/batch.ts): the items run one after another through the
 * app's own routes, as if each had come alone (same checks, same replies, same handling of
 * their Idempotency-Keys), but all inside ONE transaction, each in a savepoint. An item that
 * ends in a 5xx is rolled back to its savepoint (its key stays unclaimed, so its retry runs
 * it); every other item's writes and stored reply commit with the batch. If the commit itself
 * fails, nothing of the batch happened and the client's retry sends every item again under
 * the same keys.
 */
import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import { BATCH_PATH, type BatchItem, batchableRequests, batchRequestSchema } from '../../src/contract/batch';
import type { EntityDescription } from '../../src/contract/entity';
import { REPLAYED_HEADER } from '../../src/contract/wire';
import type { Database, Query } from '../db';
import type { AppEnv, BatchScope } from './env';
import { answerFromStore, insertReplies, isValidKey, type StoredReply, storedReplies } from './idempotency';
import { fail, TEXT } from './reply';

interface ItemReply {
  status: number;
  body: unknown;
  replayed: boolean;
}

/** The item as the request it stands for, without its key: the batch handles keys itself. */
function itemRequest(origin: string, apiPrefix: string, item: BatchItem): Request {
  const url = new URL(`${apiPrefix}/${item.path}`, origin);
  for (const [k, value] of Object.entries(item.query ?? {})) url.searchParams.set(k, String(value));
  const headers = new Headers();
  let body: string | undefined;
  if (item.method === 'POST' && item.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(item.form).toString();
  }
  // A JSON body travels parsed, in the item's scope (see runItems).
  return new Request(url, { method: item.method, headers, body });
}

async function replyOf(response: Response): Promise<ItemReply> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = { success: false, message: TEXT.internal };
  }
  return { status: response.status, body, replayed: response.headers.has(REPLAYED_HEADER) };
}

/** Another request claimed one of the batch's keys while it ran: run the batch again. */
class KeyRace extends Error {}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction may simply be run again. */
const isDeadlock = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  ['40P01', '40001'].includes((err as { code?: string }).code ?? '');

/**
 * Runs the batch's items in order inside the open transaction. Keys are looked up once before
 * and stored once after, for the whole batch (a single request needs a statement for each);
 * each item whose key is new runs in a savepoint, so a 5xx undoes that item alone.
 */
async function runItems(
  app: Hono<AppEnv>,
  c: Context<AppEnv>,
  apiPrefix: string,
  scope: BatchScope,
  items: readonly BatchItem[],
): Promise<ItemReply[]> {
  const { q } = scope;
  const keys = items.flatMap((i) => (i.method === 'POST' && i.key !== undefined ? [i.key] : []));
  const stored = await storedReplies(q, keys);
  const fresh = new Map<string, StoredReply>();
  const out: ItemReply[] = [];
  for (const item of items) {
    const key = item.method === 'POST' ? item.key : undefined;
    const methodPath = `${item.method} ${apiPrefix}/${item.path}`;
    if (key !== undefined && !isValidKey(key)) {
      out.push({ status: 400, body: { success: false, message: TEXT.badKey }, replayed: false });
      continue;
    }
    const earlier = key === undefined ? undefined : (stored.get(key) ?? fresh.get(key));
    if (earlier) {
      out.push(answerFromStore(earlier, methodPath));
      continue;
    }
    await q('SAVEPOINT batch_item');
    const json = item.method === 'POST' && !item.form ? { body: item.json ?? {} } : {};
    const request = itemRequest(c.req.url, apiPrefix, item);
    const reply = await replyOf(await app.fetch(request, { batch: { ...scope, ...json } }));
    // A 5xx means the item failed half-way: undo it, so that its retry finds nothing of it.
    await q(reply.status >= 500 ? 'ROLLBACK TO SAVEPOINT batch_item' : 'RELEASE SAVEPOINT batch_item');
    if (reply.status < 500 && key !== undefined)
      fresh.set(key, { methodPath, status: reply.status, reply: reply.body });
    out.push(reply);
  }
  if ((await insertReplies(q, fresh)).length > 0) throw new KeyRace();
  return out;
}

export function registerBatchRoute(
  app: Hono<AppEnv>,
  db: Database,
  entities: readonly EntityDescription[],
  apiPrefix: string,
): void {
  const allowed = batchableRequests(entities);
  app.post(`${apiPrefix}/${BATCH_PATH}`, async (c) => {
    let parsed: unknown;
    try {
      parsed = await c.req.json();
    } catch {
      return fail(c, 400, TEXT.malformedJson);
    }
    const checked = v.safeParse(batchRequestSchema, parsed);
    if (!checked.success) return fail(c, 400, `${TEXT.badBatch}: ${v.summarize(checked.issues)}`);
    const items = checked.output.requests;
    const refused = (item: BatchItem) => !allowed.has(`${item.method} ${item.path}`);
    if (items.some(refused)) return fail(c, 400, TEXT.notBatchable);

    // A second run finds the raced keys stored and answers them from there. A deadlock with
    // another transaction (PostgreSQL aborts one of the two) is run again too. A third failure
    // in a row is left to the client's retry (a 500, nothing of the batch applied).
    for (let attempt = 1; ; attempt++) {
      const onCommit: BatchScope['onCommit'] = [];
      const onRollback: BatchScope['onRollback'] = [];
      let replies: ItemReply[];
      try {
        replies = await db.tx((q: Query) =>
          runItems(app, c, apiPrefix, { q, adminId: c.get('adminId'), onCommit, onRollback }, items),
        );
      } catch (err) {
        await Promise.all(onRollback.map((f) => f()));
        if ((err instanceof KeyRace || isDeadlock(err)) && attempt < 3) continue;
        throw err;
      }
      await Promise.all(onCommit.map((f) => f()));
      return c.json({ success: true, replies });
    }
  });
}
