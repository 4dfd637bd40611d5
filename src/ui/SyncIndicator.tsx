/**
 * Rule 8: the administrator always sees the state of sending: offline (no network), server
 * unreachable (a network, but requests fail), signed out (sign in to send), syncing, how many
 * changes wait and how many failed. Links to the outbox screen, which has the details.
 */
import { Link } from '@tanstack/react-router';
import { CONNECTION_LABEL, connectionOf } from '../app/sync-status';
import { useQueueCounts, useSyncState } from './sync-state';
import { useOnline } from './use-online';

export function SyncIndicator() {
  const online = useOnline();
  const { waiting, failed } = useQueueCounts() ?? { waiting: 0, failed: 0 };
  const state = useSyncState();
  const connection = connectionOf(online, state);
  const parts = [CONNECTION_LABEL[connection]];
  if (state?.syncing && connection === 'online') parts.push('syncing');
  if (waiting) parts.push(`${waiting} waiting`);
  if (failed) parts.push(`${failed} failed`);
  if (connection === 'signed-out') parts.push('sign in to send');
  const tone =
    failed || connection === 'signed-out' || connection === 'problem'
      ? 'bad'
      : connection !== 'online' || waiting
        ? 'warn'
        : 'ok';
  const text = parts.join(' · ');
  return (
    <Link to="/outbox" className={`sync sync-${tone}`} aria-label={`Sync status: ${text}`} title={text}>
      <span className="sync-dot" aria-hidden="true" />
      <span className="sync-text" data-testid="sync-status">
        {text}
      </span>
    </Link>
  );
}
