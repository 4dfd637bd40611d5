/**
 * Rule 5 before edits go out: each edited record as the server has it now (one get per record,
 * all of a round's together), merged with this device's changes. An edit whose record changed
 * on the server in a field it changes too is held as a conflict; one whose record is gone
 * fails with that reason; the others go out with the merged values.
 */
import { entityByName } from '../contract/entities';
import type { OutboxEntry } from '../db/outbox-entry';
import { currentRecordFrom, currentRecordRequest } from './current-record';
import { resolveRefs } from './entry-request';
import { mergeEdit } from './merge-edit';
import type { Round } from './round-context';
import { type SendResult, settle } from './settle';

/** Per edit (by seq): the entry to send, or the pending outcome of what stopped it. */
export type Merged = Map<number, OutboxEntry | Promise<SendResult>>;

export async function mergeEdits(round: Round, edits: readonly OutboxEntry[]): Promise<Merged> {
  const merged: Merged = new Map();
  const asked: OutboxEntry[] = [];
  for (const entry of edits) {
    if (round.resolve(entry.key) === null)
      merged.set(
        entry.seq,
        settle(round.db, round.commits, entry, {
          kind: 'retry',
          reason: 'Waiting for the record to be created',
        }),
      );
    else asked.push(entry);
  }
  const outcomes = await round.transport.sendAll(
    asked.map((entry) => ({
      request: currentRecordRequest(entityByName(entry.entity), round.resolve(entry.key)!),
    })),
  );
  asked.forEach((entry, i) => {
    const entity = entityByName(entry.entity);
    const current = currentRecordFrom(entity, outcomes[i]);
    if (current.kind === 'verdict' && current.verdict.kind !== 'failed' && current.verdict.kind !== 'done') {
      merged.set(entry.seq, settle(round.db, round.commits, entry, current.verdict));
      return;
    }
    if (current.kind !== 'found') {
      const gone = `This ${entity.names.one} was deleted on the server.`;
      merged.set(
        entry.seq,
        settle(round.db, round.commits, entry, { kind: 'failed', message: gone, status: 404 }),
      );
      return;
    }
    // Parents made offline are compared by the ids the server knows them by: a resent edit
    // (its first reply lost) must not look like a change made on both sides.
    const resolved = (values: OutboxEntry['payload']) => resolveRefs(entity, values, round.resolve);
    const result = mergeEdit(entity, resolved(entry.base ?? {}), resolved(entry.payload), current.row);
    if (result.conflicts.length > 0) {
      const held = round.commits
        .write(() =>
          round.db.outbox.update(entry.seq, {
            status: 'conflict',
            conflict: { fields: result.conflicts, server: current.row },
            lastError: 'Changed on the server since this edit began',
          }),
        )
        .then((): SendResult => 'conflict');
      merged.set(entry.seq, held);
      return;
    }
    merged.set(entry.seq, { ...entry, base: result.values, payload: {} });
  });
  return merged;
}
