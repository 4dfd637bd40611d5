/**
 * "Save unsent changes": downloads the file of every waiting change with its files. On the
 * outbox screen, beside a form refused for a full disk, and when signing out with changes
 * waiting. The saving code loads on the first click.
 */
import { useState } from 'react';
import { downloadFile } from './download-file';
import { savedText } from './texts';

export function SaveUnsentButton({
  onSaved,
  className = 'button',
}: {
  /** Told what was saved, in words; the button says it itself when not given. */
  onSaved?: (text: string) => void;
  className?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const tell = onSaved ?? setSaid;
  const save = async () => {
    setBusy(true);
    try {
      const { saveUnsentChanges } = await import('../../app/saved-queue/unsent-changes');
      const { file, count } = await saveUnsentChanges();
      if (count > 0) downloadFile(file);
      tell(savedText(count, file.name));
    } catch (error) {
      console.error(error);
      tell('The changes could not be saved to a file. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className={className} disabled={busy} onClick={() => void save()}>
        Save unsent changes
      </button>
      {!onSaved && said && (
        <span role="status" className="block">
          {said}
        </span>
      )}
    </>
  );
}
