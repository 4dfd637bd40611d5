/**
 * Logout (the top bar's button), loaded on its click: at once when nothing waits; with changes
 * waiting, after the offer to save them to a file. The sign-in page then offers to forget this
 * device's offline sign-in for the administrator, when it has one. The offer is its own small
 * React root in a modal dialog, so the top bar, on every first load, carries none of it.
 */
import { createRoot } from 'react-dom/client';
import { countUnsent } from '../../app/saved-queue/unsent-count';
import { offerToForget, signedInUser } from '../../app/session';
import { signOutEverywhere } from '../../app/sign-in-out';
import { SignOutOffer } from './SignOutOffer';

export async function logOut(then: () => Promise<unknown>): Promise<void> {
  const user = signedInUser();
  const leave = async () => {
    await signOutEverywhere();
    const { canSignInOffline } = await import('../../app/offline-sign-in/offline-sign-in');
    offerToForget(user && (await canSignInOffline(user)) ? user : null);
    await then();
  };
  const count = await countUnsent();
  if (count === 0) return leave();
  const host = document.body.appendChild(document.createElement('div'));
  const root = createRoot(host);
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    root.unmount();
    host.remove();
  };
  root.render(
    <SignOutOffer
      count={count}
      onLogout={() => {
        close();
        void leave();
      }}
      onCancel={close}
    />,
  );
}
