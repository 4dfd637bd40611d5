/**
 * What the outbox says above its table: sign in again to send, the oldest change has waited more
 * than a day, and changes of another administrator that wait for their author's own sign-in.
 */
import { Link } from '@tanstack/react-router';
import { type QueueItem, staleWarning } from '../../app/outbox/outbox-queue';
import { useSyncState } from '../../ui/sync-status/sync-state';

export function OutboxNotices({ items }: { items: readonly QueueItem[] | undefined }) {
  const state = useSyncState();
  const othersAuthors = [...new Set((items ?? []).filter((i) => i.heldFor).map((i) => i.author ?? ''))];
  const warning = items
    ? staleWarning(
        items.map((i) => i.entry),
        Date.now(),
      )
    : null;
  return (
    <>
      {state?.authRequired && (
        <p role="alert">
          Sign in again to send these changes.{' '}
          <Link to="/login" className="button button-small">
            Sign in
          </Link>
        </p>
      )}
      {warning && (
        <p className="banner" role="alert">
          {warning}
        </p>
      )}
      {othersAuthors.length > 0 && (
        <p className="banner" data-testid="held-for-others">
          Some changes here were made by {othersAuthors.join(' and ')} on this device. They are not sent while
          you are signed in: each change goes out only under the sign-in of the administrator who made it, so
          they wait until {othersAuthors.length > 1 ? 'their author signs' : `${othersAuthors[0]} signs`} in
          again, or until they are discarded.
        </p>
      )}
    </>
  );
}
