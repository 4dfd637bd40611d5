/**
 * Which records of a list have a large file being sent now, with how far it got: their row
 * says 'Sending file 12%' (a link to the outbox) instead of 'Pending'. Only while the top bar
 * says Online, as the top bar and the outbox do.
 */

import { recordsOfEntries } from '../../app/sync-status/upload-watch';
import { useLiveQuery } from '../live-query';
import { useConnected, useQueueCounts } from '../sync-status/sync-state';
import { sharePercent, useFilesBeingSent } from '../sync-status/upload-progress-line';

export function useFilesSending(entity: string): ReadonlyMap<string, number> {
  const connected = useConnected();
  const sending = useQueueCounts()?.sending ?? [];
  const files = useFilesBeingSent(connected ? sending : []);
  const seqs = [...new Set(files.map((p) => p.seq))];
  const records = useLiveQuery(() => recordsOfEntries(seqs), [seqs.join(',')]);
  const percents = new Map<string, number>();
  for (const seq of seqs) {
    const record = records?.get(seq);
    if (record?.startsWith(`${entity}:`))
      percents.set(record.slice(entity.length + 1), sharePercent(files.filter((p) => p.seq === seq)));
  }
  return percents;
}
