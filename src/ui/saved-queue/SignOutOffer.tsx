/**
 * Logout with changes waiting: before the session ends, the administrator
 * hears that the changes stay on this device and may save them to a file, to send them from
 * another one. Shown by log-out.ts when Logout finds changes waiting.
 */
import { useEffect, useRef, useState } from 'react';
import { SaveUnsentButton } from './SaveUnsentButton';
import { signOutText } from './texts';

export function SignOutOffer({
  count,
  onLogout,
  onCancel,
}: {
  count: number;
  onLogout: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [said, setSaid] = useState('');
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="sign-out-offer" aria-labelledby="sign-out-offer-title" onClose={onCancel}>
      <h2 id="sign-out-offer-title">Changes not sent yet</h2>
      <p>{signOutText(count)}</p>
      <p role="status">{said}</p>
      <div className="actions">
        <SaveUnsentButton onSaved={setSaid} />
        <button type="button" className="button button-light" onClick={onLogout}>
          Log out
        </button>
        <button type="button" className="button button-light" onClick={() => dialog.current?.close()}>
          Stay signed in
        </button>
      </div>
    </dialog>
  );
}
