/**
 * The outbox screen (rule 8): every change waiting, sending or failed, with its entity,
 * action, time, attempts and last error; Sync now; Retry and Discard per change.
 */
import { requestSync } from '../app/sync-runner';
import { entityByName } from '../contract/entities';
import { discardChange, retryEntry, useOutbox, useSyncState } from '../ui/sync-state';
import { usePageTitle } from '../ui/use-page-title';

const ACTION: Record<string, string> = { add: 'Add', update: 'Edit', delete: 'Delete' };

export function OutboxScreen() {
  usePageTitle('Changes waiting to be sent');
  const entries = useOutbox();
  const state = useSyncState();
  return (
    <section className="screen">
      <div className="screen-head">
        <h1>Changes waiting to be sent</h1>
        <button type="button" className="button" onClick={() => void requestSync()}>
          Sync now
        </button>
      </div>
      {state?.authRequired && <p role="alert">Sign in again to send these changes.</p>}
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Record</th>
            <th scope="col">Action</th>
            <th scope="col">Saved</th>
            <th scope="col">Attempts</th>
            <th scope="col">State</th>
            <th scope="col">Last error</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {entries?.map((entry) => {
            const entity = entityByName(entry.entity);
            const name =
              entry.payload[entity.list.columns[0].field] ?? entry.base?.[entity.list.columns[0].field];
            return (
              <tr key={entry.id}>
                <td>
                  {entity.names.One} {name ? `“${String(name)}”` : ''}
                </td>
                <td>{entry.op === 'set' ? `Change ${entry.action}` : (ACTION[entry.op] ?? entry.op)}</td>
                <td>{new Date(entry.createdAt).toLocaleString()}</td>
                <td>{entry.attempts}</td>
                <td>{entry.status}</td>
                <td>{entry.lastError ?? ''}</td>
                <td>
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => void retryEntry(entry.seq!)}
                  >
                    Retry
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-small button-danger"
                    onClick={() => void discardChange(entry)}
                  >
                    Discard
                  </button>
                </td>
              </tr>
            );
          })}
          {entries?.length === 0 && (
            <tr>
              <td colSpan={7} className="empty">
                Every change has reached the server.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
