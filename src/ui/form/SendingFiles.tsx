/**
 * On a form that saved files while online: each file's progress while the form waits for the
 * server's verdict, and a way to leave it sending in the background, with a notice of how far
 * it got (the top bar, the list's row and the outbox screen show the progress from there).
 */
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { entrySeqs } from '../../app/sync-status/upload-watch';
import type { EntityDescription } from '../../contract/entity';
import { FILE_PROGRESS_WHERE, fileBeingSent } from '../../contract/messages';
import { useNotify } from '../notices';
import { savedNoticeTopic } from '../report-outcome';
import {
  progressOf,
  sharePercent,
  UploadProgressLine,
  useUploadProgress,
} from '../sync-status/upload-progress-line';

export function SendingFiles({
  entity,
  entryIds,
  back,
}: {
  entity: EntityDescription;
  entryIds: readonly string[];
  /** Where Continue goes (the form's way back), saying there how far the files got. */
  back: string;
}) {
  const navigate = useNavigate();
  const notify = useNotify();
  const onContinue = (percent: number | null) =>
    void navigate({ to: back }).then(() =>
      notify('info', fileBeingSent(percent), FILE_PROGRESS_WHERE, undefined, savedNoticeTopic(entryIds)),
    );
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
      <button
        type="button"
        className="button button-light"
        onClick={() => onContinue(lines.length > 0 ? sharePercent(lines) : null)}
      >
        Continue, send in the background
      </button>
    </div>
  );
}
