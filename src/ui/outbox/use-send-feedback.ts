import { useState } from 'react';
import { useOnline } from '../sync-status/use-online';

export const DELIVERED = 'All changes were delivered.';

/**
 * The outbox's status line: what Sync now or Retry answered, kept only while it is still true.
 * The connection coming or going, or the number of changes waiting moving, makes an answer
 * stale ("offline" once back online), so it goes; the queue emptying is said, unless changes
 * were discarded unsent (`discarded`: then not every change reached the server). While a send
 * is in progress the line is the send's own.
 */
export function useSendFeedback(waiting: number | undefined, discarded: number, sending: boolean) {
  const online = useOnline();
  const [feedback, setFeedback] = useState('');
  const [about, setAbout] = useState({ online, waiting });
  if (about.online !== online || about.waiting !== waiting) {
    setAbout({ online, waiting });
    if (!sending) setFeedback(waiting === 0 && (about.waiting ?? 0) > 0 ? DELIVERED : '');
  }
  // The discarded list may follow the queue by a render: what it shows then is no delivery.
  const untrue = feedback === DELIVERED && discarded > 0;
  if (untrue) setFeedback('');
  return [untrue ? '' : feedback, setFeedback] as const;
}
