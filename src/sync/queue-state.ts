/**
 * One replayer's view of the queue while it holds the lock. Reading the whole outbox and id map
 * again for every entry would make each change cost a read of the whole queue, so a long queue
 * would drain slowly (`npm run bench` shows the rate); instead the replayer reads them once,
 * keeps them current as its own replies land (while it holds the lock it is the only writer of
 * the id map and of entry statuses), and reads again when its plan runs dry, to pick up changes
 * saved meanwhile. Claimed entries are re-read at claim time, so a change folded into an unsent
 * entry after the first read is sent as folded.
 */
import type { LocalDb } from '../db/database';
import { isTempId } from '../db/ids';
import { readSignedInUser } from '../db/meta';
import type { OutboxEntry } from '../db/outbox/outbox-entry';
import { getManyByNumber } from '../db/reads/read-many';
import type { IdResolver } from './entry-request';
import { waitsForServer } from './recovery';

export class QueueState {
  readonly entries = new Map<number, OutboxEntry>();
  private readonly ids = new Map<string, string>();

  readonly resolve: IdResolver = (id) => (isTempId(id) ? (this.ids.get(id) ?? null) : id);

  static async load(db: LocalDb): Promise<QueueState> {
    const state = new QueueState();
    await db.transaction('r', db.outbox, db.idmap, async () => {
      for (const e of await db.outbox.toArray()) state.entries.set(e.seq, e);
      for (const m of await db.idmap.toArray()) state.ids.set(m.tempId, m.serverId);
    });
    return state;
  }

  all(): OutboxEntry[] {
    return [...this.entries.values()];
  }

  /** Takes the stored copies of entries again (forgets those that are gone), in one read. */
  async reread(db: LocalDb, seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    const fresh = await db.outbox.bulkGet([...seqs]);
    seqs.forEach((seq, i) => {
      const entry = fresh[i];
      if (entry) this.entries.set(seq, entry);
      else this.entries.delete(seq);
    });
  }

  /** The entries waiting for the server to be reachable again (recovery.ts). */
  waitingForServer(now: number): number[] {
    return [...this.entries.values()].filter((e) => waitsForServer(e, now)).map((e) => e.seq);
  }

  /** An add was confirmed: later entries of the record now carry the server's id. */
  confirmAdd(entity: string, tempId: string, serverId: string): void {
    this.ids.set(tempId, serverId);
    for (const e of this.entries.values()) if (e.entity === entity && e.key === tempId) e.key = serverId;
  }

  /**
   * Marks entries 'sending' and counts the attempt before any request leaves (rule 2), in one
   * transaction; returns the stored copies of those still waiting to be sent.
   *
   * `author`: the administrator the run sends for. The claim reads who is signed in
   * within its transaction and claims nothing once that changed: a sign-out (offline too) or
   * another administrator's sign-in that happened while the run was planning cannot let the
   * run send under a session that is no longer the author's.
   */
  async claim(db: LocalDb, entries: readonly OutboxEntry[], author?: string | null): Promise<OutboxEntry[]> {
    if (entries.length === 0) return [];
    const claimed: OutboxEntry[] = [];
    let signedOut = false;
    await db.transaction('rw', db.outbox, db.meta, async () => {
      signedOut = author !== undefined && (await readSignedInUser(db)) !== author;
      if (signedOut) return;
      // Mostly consecutive entries: one read of their range where it holds few others.
      const fresh = await getManyByNumber(
        db.outbox,
        'seq',
        entries.map((e) => e.seq),
      );
      for (const entry of fresh) {
        if (entry?.status !== 'pending') continue;
        entry.attempts += 1;
        entry.status = 'sending';
        claimed.push(entry);
      }
      // Whole entries, read in this same transaction: nothing else can have changed them.
      await db.outbox.bulkPut(claimed);
    });
    if (signedOut) return claimed;
    for (const e of entries) this.entries.delete(e.seq);
    for (const e of claimed) this.entries.set(e.seq, e);
    return claimed;
  }
}
