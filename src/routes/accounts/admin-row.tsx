/**
 * One administrator in the Administrators table: the role as a select that applies at once,
 * Enable or Disable, and a new password set in place (typed twice, checked here by the same
 * rule the server applies, sent at once and never kept).
 */
import { type FormEvent, useState } from 'react';
import { updateAdmin } from '../../app/accounts/admins';
import { ACCOUNT_TEXT, type AdminSummary, passwordProblem } from '../../contract/accounts/admins-api';
import { ROLES, type Role } from '../../contract/accounts/roles';
import { useNotify } from '../../ui/notices';
import { PASSWORDS_DIFFER } from './account';
import { PasswordField } from './password-field';

const lastSignIn = (at: string | null) => (at ? new Date(at).toLocaleString() : 'Never');

function NewPassword({ admin, onDone }: { admin: AdminSummary; onDone: () => void }) {
  const notify = useNotify();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = `new-password-${admin.id}`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wrong = passwordProblem(admin.username, password) ?? (password !== again ? PASSWORDS_DIFFER : null);
    if (wrong) return setProblem(wrong);
    const reply = await updateAdmin({ id: admin.id, password });
    if (!reply.ok) return setProblem(reply.message);
    notify('success', ACCOUNT_TEXT.updated, `New password set for ${admin.username}.`);
    onDone();
  };
  return (
    <form className="admin-password" onSubmit={submit} noValidate>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <PasswordField
        id={id}
        label={`New password for ${admin.username}`}
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
      />
      <PasswordField
        id={`${id}-again`}
        label="Confirm new password"
        value={again}
        onChange={setAgain}
        autoComplete="new-password"
      />
      <div className="form-actions">
        <button type="submit" className="button button-small">
          Set password
        </button>
        <button type="button" className="button button-small button-light" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function AdminRow({ admin, onChanged }: { admin: AdminSummary; onChanged: () => void }) {
  const notify = useNotify();
  const [settingPassword, setSettingPassword] = useState(false);
  const change = async (patch: { role?: Role; status?: AdminSummary['status'] }) => {
    const reply = await updateAdmin({ id: admin.id, ...patch });
    if (reply.ok) notify('success', ACCOUNT_TEXT.updated, admin.username);
    else notify('error', `${admin.username} was not changed`, reply.message);
    onChanged();
  };
  const enabled = admin.status === 'Enabled';
  return (
    <tr>
      <td data-label="Username" className="cell-primary">
        {admin.username}
      </td>
      <td data-label="Role">
        <select
          className="admin-role"
          aria-label={`Role of ${admin.username}`}
          value={admin.role}
          onChange={(e) => void change({ role: e.target.value as Role })}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </td>
      <td data-label="Status">{admin.status}</td>
      <td data-label="Last sign-in">{lastSignIn(admin.lastSignIn)}</td>
      <td data-label="Actions">
        {settingPassword ? (
          <NewPassword admin={admin} onDone={() => setSettingPassword(false)} />
        ) : (
          <span className="actions">
            <button
              type="button"
              className={`button button-small${enabled ? ' button-light' : ''}`}
              aria-label={`${enabled ? 'Disable' : 'Enable'} ${admin.username}`}
              onClick={() => void change({ status: enabled ? 'Disabled' : 'Enabled' })}
            >
              {enabled ? 'Disable' : 'Enable'}
            </button>
            <button
              type="button"
              className="button button-small button-light"
              aria-label={`Set password for ${admin.username}`}
              onClick={() => setSettingPassword(true)}
            >
              Set password
            </button>
          </span>
        )}
      </td>
    </tr>
  );
}
