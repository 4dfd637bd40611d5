/**
 * Login (spec §2): both fields required, 120px logo in a 500px card, errors in red above the
 * form. Offline it says what is possible (an administrator who signed in here before signs in
 * against this device: app/offline-sign-in); after a sign-out it offers to forget that.
 */
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { forgetOffered } from '../app/session';
import { BRAND, LOGO_URL } from '../app/window-settings';
import { LOGIN_ERROR, LOGIN_FAILED } from '../contract/messages';
import { useOnline } from '../ui/sync-status/use-online';
import { usePageTitle } from '../ui/use-page-title';

// Loaded when it is needed (a Login or Forget press): the first load stays small.
const signInOut = () => import('../app/sign-in-out');

export function LoginScreen() {
  usePageTitle('Login');
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const online = useOnline();
  const [offered, setOffered] = useState(forgetOffered);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await (await signInOut()).signInAndResume(username, password);
      if (result.ok) {
        await navigate({ to: '/homepage' });
        return;
      }
      setError(result.network ? LOGIN_ERROR : (result.message ?? LOGIN_FAILED));
    } catch {
      setError(LOGIN_ERROR);
    }
    setBusy(false);
  };

  return (
    <main className="login" id="main">
      <div className="login-card">
        <img src={LOGO_URL} alt={BRAND} width={120} className="login-logo" />
        <h1>Sign in</h1>
        {!online && (
          <p className="login-note" role="status">
            Offline: an administrator who has signed in on this device before can sign in here; changes are
            sent when the connection is back.
          </p>
        )}
        {error && (
          <p className="login-error" role="alert">
            {error}
          </p>
        )}
        <form onSubmit={submit}>
          <div className="field">
            <label htmlFor="username">Username</label>
            <input
              id="username"
              name="username"
              autoComplete="username"
              required
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          <button type="submit" className="button button-wide" disabled={busy}>
            Login
          </button>
        </form>
        {offered && (
          <p className="login-note">
            {offered} can sign in on this device without a connection.{' '}
            <button
              type="button"
              className="button button-small button-light"
              onClick={async () => {
                await (await signInOut()).forgetOfflineSignIn(offered);
                setOffered(null);
              }}
            >
              Forget
            </button>
          </p>
        )}
      </div>
    </main>
  );
}
