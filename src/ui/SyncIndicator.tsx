/**
 * Rule 8: the administrator always sees the state of the queue: online or offline, how many
 * changes wait, whether a sync runs, how many failed. Links to the outbox screen.
 */
import { Link } from '@tanstack/react-router';
import { useQueueCounts, useSyncState } from './sync-state';
import { useOnline } from './use-online';

export function SyncIndicator() {
  const online = useOnline();
  const { waiting, failed } = useQueueCounts() ?? { waiting: 0, failed: 0 };
  const state = useSyncState();
  const parts = [online ? 'Online' : 'Offline'];
  if (state?.syncing && online) parts.push('syncing');
  if (waiting) parts.push(`${waiting} waiting`);
  if (failed) parts.push(`${failed} failed`);
  if (state?.authRequired) parts.push('sign in to send');
  const tone = failed || state?.authRequired ? 'bad' : !online || waiting ? 'warn' : 'ok';
  return (
    <Link to="/outbox" className={`sync sync-${tone}`} aria-label={`Sync status: ${parts.join(', ')}`}>
      <span className="sync-dot" aria-hidden="true" />
      <span data-testid="sync-status">{parts.join(' · ')}</span>
    </Link>
  );
}
