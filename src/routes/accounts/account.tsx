/**
 * My account (`/account`, SETTINGS): every administrator changes their own password here,
 * with the current one, the new one and the new one again. Online only: the password goes to
 * the server at once and is never kept on the device (no draft, no outbox).
 */
import { type FormEvent, useState } from 'react';
import { changeOwnPassword, NEEDS_SERVER } from '../../app/accounts/admins';
import { signedInUser } from '../../app/session';
import { ACCOUNT_TEXT, passwordProblem } from '../../contract/accounts/admins-api';
import { useRole } from '../../ui/role';
import { useOnline } from '../../ui/sync-status/use-online';
import { usePageTitle } from '../../ui/use-page-title';
import { PasswordField } from './password-field';

const TITLE = 'My account';
const ENTER_CURRENT = 'Enter your current password.';
export const PASSWORDS_DIFFER = 'The new password and its confirmation are not the same.';

export function AccountScreen() {
  usePageTitle(TITLE);
  const username = signedInUser() ?? '';
  const role = useRole();
  const online = useOnline();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = !current
      ? ENTER_CURRENT
      : (passwordProblem(username, next) ?? (next !== again ? PASSWORDS_DIFFER : null));
    if (problem) return setSaid({ ok: false, text: problem });
    setBusy(true);
    const reply = await changeOwnPassword(current, next);
    setBusy(false);
    if (!reply.ok) return setSaid({ ok: false, text: reply.message });
    setCurrent('');
    setNext('');
    setAgain('');
    setSaid({ ok: true, text: ACCOUNT_TEXT.passwordChanged });
  };

  return (
    <section className="screen">
      <h1>{TITLE}</h1>
      <p>
        Signed in as <strong>{username}</strong>, {role}.
      </p>
      <h2>Change password</h2>
      {!online && <p role="status">{NEEDS_SERVER}</p>}
      <form className="form account-form" onSubmit={submit} noValidate>
        {said && (
          <p className={said.ok ? 'form-success' : 'form-error'} role={said.ok ? 'status' : 'alert'}>
            {said.text}
          </p>
        )}
        <PasswordField
          id="current"
          label="Current password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
        />
        <PasswordField
          id="next"
          label="New password"
          value={next}
          onChange={setNext}
          autoComplete="new-password"
        />
        <PasswordField
          id="again"
          label="Confirm new password"
          value={again}
          onChange={setAgain}
          autoComplete="new-password"
        />
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            Change password
          </button>
        </div>
      </form>
    </section>
  );
}
