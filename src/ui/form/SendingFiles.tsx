/**
 * On a form that saved files while online: each file's progress while the form waits for the
 * server's verdict, and a way to leave it sending in the background (the outbox screen shows
 * the same progress).
 */
import { useEffect, useState } from 'react';
import { entrySeqs } from '../../app/sync-status/upload-watch';
import type { EntityDescription } from '../../contract/entity';
import { progressOf, UploadProgressLine, useUploadProgress } from '../sync-status/upload-progress-line';

export function SendingFiles({
  entity,
  entryIds,
  onContinue,
}: {
  entity: EntityDescription;
  entryIds: readonly string[];
  onContinue: () => void;
}) {
  const all = useUploadProgress();
  const [seqs, setSeqs] = useState<number[]>([]);
  useEffect(() => {
    void entrySeqs(entryIds).then((found) => setSeqs([...found.values()]));
  }, [entryIds]);
  const lines = seqs.flatMap((seq) => progressOf(all, seq));
  return (
    <div className="sending-files">
      <div role="status">
        {lines.length === 0 ? (
          <p>Sending {entryIds.length === 1 ? 'the file' : `${entryIds.length} records with their files`}…</p>
        ) : (
          <ul>
            {lines.map((p) => (
              <li key={`${p.seq}:${p.field}`}>
                <UploadProgressLine progress={p} label={entity.fields[p.field]?.label ?? p.field} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <button type="button" className="button button-light" onClick={onContinue}>
        Continue, send in the background
      </button>
    </div>
  );
}
