/**
 * The outbox screen's part in keeping unsent changes: whether the browser keeps this device's
 * data (persistent storage) and how much of its quota is used, "Save unsent changes" and
 * "Load changes from a file". What a load did is said in the status line: how many changes were
 * queued, which were here already, whose changes wait for their author's sign-in.
 */
import { useEffect, useState } from 'react';
import {
  loadUnsentChanges,
  readStorageStatus,
  SavedQueueError,
  type StorageStatus,
} from '../../app/saved-queue/unsent-changes';
import { SaveUnsentButton } from './SaveUnsentButton';
import { loadedText, storageText } from './texts';

export function SavedQueuePanel() {
  const [status, setStatus] = useState<StorageStatus | null>(null);
  const [said, setSaid] = useState('');
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    void readStorageStatus().then(setStatus);
  }, []);

  const load = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    setLoading(true);
    try {
      setSaid(loadedText(await loadUnsentChanges(file)));
    } catch (error) {
      if (error instanceof SavedQueueError) setSaid(error.message);
      else {
        console.error(error);
        setSaid('The file could not be loaded. Nothing was queued.');
      }
    } finally {
      input.value = '';
      setLoading(false);
      void readStorageStatus().then(setStatus);
    }
  };

  return (
    <section className="saved-queue" aria-labelledby="saved-queue-title">
      <h2 id="saved-queue-title">Keep these changes safe</h2>
      <p data-testid="storage-status">{status ? storageText(status) : ''}</p>
      <p className="muted">
        Save the changes to a file to keep them if this browser is cleared, or to send them from another
        browser or tablet.
      </p>
      <div className="actions">
        <SaveUnsentButton className="button button-light" onSaved={setSaid} />
        <label className="button button-light">
          Load changes from a file
          <input
            type="file"
            accept=".json,application/json"
            className="visually-hidden"
            disabled={loading}
            onChange={(e) => void load(e.currentTarget)}
          />
        </label>
      </div>
      <p role="status" data-testid="saved-queue-status">
        {said}
      </p>
    </section>
  );
}
