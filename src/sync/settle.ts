/**
 * What a verdict other than "done" does to the entry that got it (rule 4): a retry waits with
 * backoff (or the server's Retry-After), a 401 pauses the whole queue, a refusal marks the
 * entry failed with the server's message and puts back a record whose delete was refused.
 * The writes join the round's group commit.
 */

import type { LocalDb } from '../db/database';
import { patchSyncState } from '../db/meta';
import { restoreBase } from '../db/outbox/discard';
import type { GroupCommit } from '../db/outbox/group-commit';
import type { OutboxEntry } from '../db/outbox/outbox-entry';
import { backoffMs, type Verdict } from './classify';

export type SendResult = 'sent' | 'failed' | 'retry' | 'auth' | 'conflict';

export async function settle(
  db: LocalDb,
  commits: GroupCommit,
  entry: OutboxEntry,
  verdict: Exclude<Verdict, { kind: 'done' }>,
): Promise<SendResult> {
  switch (verdict.kind) {
    case 'retry':
      await commits.write(() =>
        db.outbox.update(entry.seq, {
          status: 'pending',
          // The server's Retry-After wins over our own backoff (503 during maintenance).
          nextAttemptAt: Date.now() + (verdict.afterMs ?? backoffMs(entry.attempts)),
          unreachable: verdict.unreachable === true,
          lastError: verdict.reason,
        }),
      );
      return 'retry';
    case 'auth':
      await commits.write(async () => {
        await db.outbox.update(entry.seq, { status: 'pending' });
        await patchSyncState(db, { authRequired: true });
      });
      return 'auth';
    case 'failed':
      await commits.write(async () => {
        await db.outbox.update(entry.seq, {
          status: 'failed',
          lastError: verdict.message ?? `The server refused the change (status ${verdict.status})`,
          ...(verdict.gone ? { goneOnServer: true } : {}),
        });
        // The server still has the record: show it again until the administrator decides.
        if (entry.op === 'delete') await restoreBase(db, entry);
      });
      return 'failed';
  }
}
