/**
 * Administrators (`/administrators`, SETTINGS, Owner only): who may sign in, with their role,
 * status and last sign-in, read from the server each time the screen opens; adding one with
 * an initial password and a role; changing a role, disabling and enabling, setting a new
 * password (admin-row.tsx). Online only, straight to the server: administrators are not kept
 * on the device and a password never waits in the outbox.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type AdminsReply, addAdmin, fetchAdmins, NEEDS_SERVER } from '../../app/accounts/admins';
import {
  ACCOUNT_TEXT,
  type AdminSummary,
  passwordProblem,
  USERNAME_PATTERN,
} from '../../contract/accounts/admins-api';
import { ROLES, type Role } from '../../contract/accounts/roles';
import { useNotify } from '../../ui/notices';
import { ScrollTable } from '../../ui/ScrollTable';
import { useOnline } from '../../ui/sync-status/use-online';
import { usePageTitle } from '../../ui/use-page-title';
import { AdminRow } from './admin-row';
import { PasswordField } from './password-field';

const TITLE = 'Administrators';

function AddAdministrator({ onAdded }: { onAdded: () => void }) {
  const notify = useNotify();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('Viewer');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wrong = USERNAME_PATTERN.test(username.trim())
      ? passwordProblem(username, password)
      : ACCOUNT_TEXT.badUsername;
    if (wrong) return setProblem(wrong);
    setBusy(true);
    const reply = await addAdmin({ username: username.trim(), password, role });
    setBusy(false);
    if (!reply.ok) return setProblem(reply.message);
    setProblem(null);
    setUsername('');
    setPassword('');
    notify('success', ACCOUNT_TEXT.added, `${username.trim()}, ${role}`);
    onAdded();
  };
  return (
    <form className="form admin-add" onSubmit={submit} noValidate aria-labelledby="add-admin">
      <h2 id="add-admin">Add administrator</h2>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="form-grid">
        <div className="field">
          <label htmlFor="admin-username">Username</label>
          <input
            id="admin-username"
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </div>
        <PasswordField
          id="admin-password"
          label="Initial password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
        />
        <div className="field">
          <label htmlFor="admin-role">Role</label>
          <select id="admin-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          Add administrator
        </button>
      </div>
    </form>
  );
}

function AdminsTable({ admins, reload }: { admins: readonly AdminSummary[]; reload: () => void }) {
  return (
    <ScrollTable label={TITLE} cardsBelow={52}>
      <table className="table table-cards">
        <thead>
          <tr>
            <th scope="col">Username</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {admins.map((admin) => (
            <AdminRow key={admin.id} admin={admin} onChanged={reload} />
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

export function AdministratorsScreen() {
  usePageTitle(TITLE);
  const online = useOnline();
  const [reply, setReply] = useState<AdminsReply<AdminSummary[]> | null>(null);
  const load = useCallback(() => {
    void fetchAdmins().then(setReply);
  }, []);
  // Read again when the device comes back online.
  useEffect(() => {
    if (online) load();
  }, [online, load]);
  return (
    <section className="screen">
      <h1>{TITLE}</h1>
      {!online ? (
        <p role="status">{NEEDS_SERVER}</p>
      ) : reply === null ? (
        <p role="status">Loading…</p>
      ) : !reply.ok ? (
        <div>
          <p role="alert">{reply.message}</p>
          <button type="button" className="button button-light" onClick={load}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <AdminsTable admins={reply.value} reload={load} />
          <AddAdministrator onAdded={load} />
        </>
      )}
    </section>
  );
}
