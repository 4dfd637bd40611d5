/**
 * The outbox screen's part of issue 20 item 5: whether the browser keeps this device's data
 * (persistent storage) and how much of its quota is used, "Save unsent changes" and "Load
 * changes from a file". What a load did is said in the status line: how many changes were
 * queued, which were here already, whose changes wait for their author's sign-in.
 */
import { useEffect, useState } from 'react';
import {
  type LoadReport,
  loadUnsentChanges,
  readStorageStatus,
  SavedQueueError,
  type StorageStatus,
} from '../../app/saved-queue';
import { SaveUnsentButton } from './SaveUnsentButton';

function size(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function storageText(status: StorageStatus): string {
  const kept =
    status.persisted === true
      ? 'This browser keeps the changes on this device until they are sent (persistent storage is on).'
      : status.persisted === false
        ? 'This browser may clear its storage when the device runs short of space (persistent storage is off). Save unsent changes to a file to be safe.'
        : 'This browser does not say whether it keeps its storage.';
  const used =
    status.usage !== null && status.quota !== null
      ? ` ${size(status.usage)} used of ${size(status.quota)} this browser allows.`
      : '';
  return kept + used;
}

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

export function loadedText(report: LoadReport & { signedIn: string | null }): string {
  if (report.queued === 0)
    return report.alreadyHere > 0
      ? 'These changes are already on this device. Nothing new was loaded.'
      : 'The file holds no changes. Nothing was loaded.';
  const parts = [`Loaded ${changes(report.queued)}.`];
  if (report.alreadyHere > 0) parts.push(`${changes(report.alreadyHere)} of the file were already here.`);
  parts.push(
    report.waitingFor.length > 0
      ? `They were made by ${report.waitingFor.join(' and ')} and wait until ${report.waitingFor.length > 1 ? 'their author signs' : 'they sign'} in on this device.`
      : 'They are sent from here; if the other device sends them too, each still takes effect once.',
  );
  return parts.join(' ');
}

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
