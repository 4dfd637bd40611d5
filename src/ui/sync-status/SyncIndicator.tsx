/**
 * Rule 8: the administrator always sees the state of sending: offline (no network), server
 * unreachable (a network, but requests fail), signed out (sign in to send), online, or Live
 * (online, and told at once of others' changes: app/live-pokes.ts), syncing, how many
 * changes wait and how many failed, and a list being received (a first sync: 'Students 40,000
 * of 100,000', from the local store, so a pull in the service worker shows too; in a crowded
 * state the bar shows less, the label all: shownStatus in status-words.ts), a large file
 * on its way ('sending a file, 12%', only while it is being sent). Links to the
 * outbox screen, which has the details. Progress is also announced politely, now and then
 * (src/app/sync-status/progress-announcement.ts).
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { catalogue } from '../../app/catalogue/built-catalogue';
import { NO_ANNOUNCEMENT, progressAnnouncement } from '../../app/sync-status/progress-announcement';
import {
  CONNECTION_LABEL,
  connectionOf,
  progressText,
  shownStatus,
} from '../../app/sync-status/status-words';
import { type ListProgress, usePullProgress, useQueueCounts, useSyncState } from './sync-state';
import { type FilesOnTheirWay, useFilesOnTheirWay } from './use-files-on-their-way';
import { useLive, useOnline } from './use-online';

/** Lists being received, in the order they are pulled (parents first). */
export function useReceiving(): (readonly [string, ListProgress])[] {
  const progress = usePullProgress() ?? {};
  return Object.values(catalogue.tables)
    .filter((table) => progress[table])
    .map((table) => [table, progress[table]] as const);
}

export function SyncIndicator() {
  const online = useOnline();
  const { waiting, failed, sending } = useQueueCounts() ?? { waiting: 0, failed: 0, sending: [] };
  const state = useSyncState();
  const receiving = useReceiving();
  const connection = connectionOf(online, state);
  const files = useFilesOnTheirWay(connection === 'online' ? sending : []);
  const live = useLive();
  const parts = [connection === 'online' && live ? 'Live' : CONNECTION_LABEL[connection]];
  if (files) parts.push(filesText(files));
  else if (state?.syncing && connection === 'online') parts.push('syncing');
  const at = parts.length;
  if (receiving.length > 0) parts.push(progressText(...receiving[0]));
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
  const shown = shownStatus(parts, at, receiving[0]);
  return (
    <>
      <Link to="/outbox" className={`sync sync-${tone}`} aria-label={`Sync status: ${text}`} title={text}>
        <span className="sync-dot" aria-hidden="true" />
        <span className="sync-text" data-testid="sync-status">
          {shown}
        </span>
      </Link>
      <ProgressAnnouncer receiving={receiving} />
    </>
  );
}

/** 'sending a file, 12%', 'sending 2 files, 40%'. */
const filesText = ({ count, percent }: FilesOnTheirWay) =>
  `sending ${count === 1 ? 'a file' : `${count} files`}, ${percent}%`;

/** A polite live region, present from the start (so it is heard), speaking now and then. */
function ProgressAnnouncer({ receiving }: { receiving: (readonly [string, ListProgress])[] }) {
  const [message, setMessage] = useState('');
  const heard = useRef(NO_ANNOUNCEMENT);
  const key = receiving.map(([t, p]) => `${t}:${p.received}/${p.total}`).join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `receiving`'s content
  useEffect(() => {
    const next = progressAnnouncement(heard.current, receiving, Date.now());
    heard.current = next.state;
    if (next.message) setMessage(next.message);
  }, [key]);
  return (
    <span className="visually-hidden" role="status" data-testid="sync-progress-announcement">
      {message}
    </span>
  );
}
