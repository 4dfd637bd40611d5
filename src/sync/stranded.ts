/**
 * What a discard would strand. An add the server has not confirmed is the only way its record
 * reaches the server; a later change naming that record (a student in a school added offline,
 * an edit of the school, a series in a class added offline and then a book in that series)
 * could never be sent without it, and replay would fail it (`unconfirmedRecord`). The outbox
 * asks before discarding such an add alone.
 */
import { entityByName } from '../contract/entities';
import { parentName } from '../contract/parent-names';
import type { LocalDb } from '../db/database';
import { isTempId } from '../db/ids';
import type { OutboxEntry } from '../db/outbox/outbox-entry';
import { type IdResolver, type RecordRef, referencedRecords } from './entry-request';

const recordKey = (ref: RecordRef) => `${ref.entity}\u0000${ref.id}`;

/** The record an unsent add creates, when the server has not named it yet. */
function unconfirmedAdd(entry: OutboxEntry, resolve: IdResolver): string | null {
  return entry.op === 'add' && isTempId(entry.key) && resolve(entry.key) === null
    ? recordKey({ entity: entry.entity, id: entry.key })
    : null;
}

/** The later entries that name a record only `entry` creates, directly or through another add. */
export function strandedBy(
  entries: readonly OutboxEntry[],
  entry: OutboxEntry,
  resolve: IdResolver,
): OutboxEntry[] {
  const first = unconfirmedAdd(entry, resolve);
  if (first === null) return [];
  const lost = new Set([first]);
  const stranded: OutboxEntry[] = [];
  for (const later of [...entries].sort((a, b) => a.seq - b.seq)) {
    if (later.seq <= entry.seq) continue;
    const refs = referencedRecords(entityByName(later.entity), later).map(recordKey);
    if (!refs.some((ref) => lost.has(ref))) continue;
    stranded.push(later);
    const created = unconfirmedAdd(later, resolve);
    if (created !== null) lost.add(created);
  }
  return stranded;
}

/**
 * The first record an entry names that nothing will create (an add the server has not confirmed
 * and that is no longer queued), for saying which one it is; null when there is none.
 */
export function unconfirmedRecord(entry: OutboxEntry, resolve: IdResolver): RecordRef | null {
  const refs = referencedRecords(entityByName(entry.entity), entry);
  const own = (ref: RecordRef) => entry.op === 'add' && ref.entity === entry.entity && ref.id === entry.key;
  return refs.find((ref) => isTempId(ref.id) && resolve(ref.id) === null && !own(ref)) ?? null;
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/**
 * Why an entry naming a record nothing will create cannot be sent, naming that record by its
 * title when this device still has it ('It refers to the school “Green Valley”, which …').
 */
export async function unconfirmedError(
  db: LocalDb,
  entry: OutboxEntry,
  resolve: IdResolver,
): Promise<string> {
  const ref = unconfirmedRecord(entry, resolve);
  const entity = ref ? entityByName(ref.entity) : null;
  if (!ref || !entity) return 'It refers to a record the server has not confirmed, so it cannot be sent.';
  const row = await db.rows(entity).get(ref.id);
  const title = row ? parentName(entity, row) : '';
  const one = entity.names.one;
  return title
    ? `It refers to the ${one} “${title}”, which the server has not confirmed, so it cannot be sent.`
    : `It refers to ${article(one)} ${one} the server has not confirmed (its add is no longer waiting), so it cannot be sent.`;
}
