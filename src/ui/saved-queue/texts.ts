/**
 * What the saved-queue screens say, as plain functions of what happened:
 * the storage line, a save, a load, the offer at Logout.
 */
import type { LoadReport, StorageStatus } from '../../app/saved-queue/unsent-changes';

/** From this share of the quota used, the screen says space is running out. */
const ALMOST_FULL = 0.9;

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
  const known = status.usage !== null && status.quota !== null && status.quota > 0;
  const used = known ? ` ${size(status.usage!)} used of ${size(status.quota!)} this browser allows.` : '';
  const almostFull =
    known && status.usage! >= ALMOST_FULL * status.quota!
      ? ' This device is almost out of storage space: save unsent changes to a file now.'
      : '';
  return kept + used + almostFull;
}

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

export function loadedText(report: LoadReport & { signedIn: string | null }): string {
  if (report.queued === 0)
    return report.alreadyHere > 0
      ? 'These changes are already on this device. Nothing new was loaded.'
      : 'The file holds no changes. Nothing was loaded.';
  const parts = [`Loaded ${changes(report.queued)}.`];
  if (report.alreadyHere > 0)
    parts.push(
      `${changes(report.alreadyHere)} of the file ${report.alreadyHere === 1 ? 'was' : 'were'} already here.`,
    );
  parts.push(
    report.waitingFor.length > 0
      ? `They were made by ${report.waitingFor.join(' and ')} and wait until ${report.waitingFor.length > 1 ? 'their author signs' : 'they sign'} in on this device.`
      : 'They are sent from here. If the other device sends them too, each still takes effect only once.',
  );
  return parts.join(' ');
}

export const savedText = (count: number, name: string) =>
  count === 0
    ? 'Nothing is waiting to be sent, so there was nothing to save.'
    : `Saved ${count} ${count === 1 ? 'change' : 'changes'} to ${name}. Keep the file until ${count === 1 ? 'it reaches' : 'they reach'} the server.`;

export function signOutText(count: number): string {
  const some = count === 1 ? '1 change has' : `${count} changes have`;
  return `${some} not reached the server yet. ${count === 1 ? 'It stays' : 'They stay'} on this device and ${count === 1 ? 'is' : 'are'} sent when you sign in again. To send ${count === 1 ? 'it' : 'them'} from another device, save ${count === 1 ? 'it' : 'them'} to a file first.`;
}
