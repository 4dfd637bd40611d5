/**
 * Upload progress as the screens show it: percent and size of each large file on its way
 * (src/app/sync-status/upload-watch.ts), on the form that saved it while online and on the outbox
 * screen. Events come chunk by chunk (5 MB), from this window's replays or the service
 * worker's.
 */
import { useEffect, useState } from 'react';
import { type UploadProgress, watchUploadProgress } from '../../app/sync-status/upload-progress';
import { formatBytes } from '../fields/format-bytes';

/** The latest progress of every file on its way, by outbox seq and field. */
export function useUploadProgress(): ReadonlyMap<string, UploadProgress> {
  const [all, setAll] = useState<ReadonlyMap<string, UploadProgress>>(new Map());
  useEffect(
    () => watchUploadProgress((p) => setAll((before) => new Map(before).set(`${p.seq}:${p.field}`, p))),
    [],
  );
  return all;
}

/**
 * The large files of the changes in `sending` (pass none while the top bar does not say
 * Online) that are still on their way, for the top bar and a list's rows.
 */
export function useFilesBeingSent(sending: readonly number[]): UploadProgress[] {
  return onTheirWay(useUploadProgress().values(), sending);
}

/** Of the files heard of, those of the changes in `sending` not yet all sent. */
export const onTheirWay = (heard: Iterable<UploadProgress>, sending: readonly number[]) =>
  [...heard].filter((p) => sending.includes(p.seq) && p.sent < p.total);

/** The progress of one entry's files (a record may carry several). */
export function progressOf(all: ReadonlyMap<string, UploadProgress>, seq: number): UploadProgress[] {
  return [...all.values()].filter((p) => p.seq === seq);
}

export const percentOf = (p: UploadProgress) => sharePercent([p]);

/** Bytes sent (or confirmed) of several files as one share: 'the file is being sent, 12%'. */
export function sharePercent(files: readonly UploadProgress[], of: 'sent' | 'confirmed' = 'sent'): number {
  const total = files.reduce((sum, p) => sum + p.total, 0);
  return total > 0 ? Math.floor((files.reduce((sum, p) => sum + p[of], 0) / total) * 100) : 0;
}

/** 'Page Image “scan-12.png”: 45% (4.5 MB of 10.0 MB)', with a progress bar. */
export function UploadProgressLine({ progress, label }: { progress: UploadProgress; label: string }) {
  const percent = percentOf(progress);
  const what = progress.name ? `${label} “${progress.name}”` : label;
  const text = `${what}: ${percent}% (${formatBytes(progress.sent)} of ${formatBytes(progress.total)})`;
  return (
    <span className="upload-progress">
      <progress max={100} value={percent} aria-label={what} />
      <span>{text}</span>
    </span>
  );
}
