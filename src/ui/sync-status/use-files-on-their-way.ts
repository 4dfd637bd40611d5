/**
 * The top bar's large files on their way: how many, and their share sent. The progress code
 * loads only once a change carrying a file is being sent, as the top bar is on every first
 * load and most loads send no file. A file's progress heard before the code has loaded shows
 * from its next piece (about a second later); until then the top bar says 'syncing'.
 */
import { useEffect, useState } from 'react';
import type { UploadProgress } from '../../app/sync-status/upload-progress';

export interface FilesOnTheirWay {
  count: number;
  percent: number;
}

/** `sending`: the changes being sent now (pass none while the top bar does not say Online). */
export function useFilesOnTheirWay(sending: readonly number[]): FilesOnTheirWay | null {
  const [files, setFiles] = useState<FilesOnTheirWay | null>(null);
  const key = sending.join(',');
  useEffect(() => {
    setFiles(null);
    if (key === '') return;
    const seqs = key.split(',').map(Number);
    const heard = new Map<string, UploadProgress>();
    let stop: (() => void) | undefined;
    let ended = false;
    void Promise.all([
      import('../../app/sync-status/upload-progress'),
      import('./upload-progress-line'),
    ]).then(([{ watchUploadProgress }, { onTheirWay, sharePercent }]) => {
      if (ended) return;
      stop = watchUploadProgress((p) => {
        heard.set(`${p.seq}:${p.field}`, p);
        const files = onTheirWay(heard.values(), seqs);
        setFiles(files.length > 0 ? { count: files.length, percent: sharePercent(files) } : null);
      });
    });
    return () => {
      ended = true;
      stop?.();
    };
  }, [key]);
  return files;
}
