/**
 * The outbox screen (rule 8): every change waiting, sending, failed or in conflict, with its
 * record, action, time, attempts, state (and what it waits for) and the last error; Sync
 * now; Retry, Edit and Discard per change; conflicts settled side by side; a warning when
 * the oldest change has waited more than a day.
 */
import { Link } from '@tanstack/react-router';
import { discardChange, retryChange, staleWarning } from '../app/outbox';
import { requestSync } from '../app/sync-runner';
import { entityByName } from '../contract/entities';
import { ConflictPanel } from '../ui/ConflictPanel';
import { useQueueView } from '../ui/outbox-data';
import { encodeRouteId } from '../ui/route-id';
import { useSyncState } from '../ui/sync-state';
import { usePageTitle } from '../ui/use-page-title';

export function OutboxScreen() {
  usePageTitle('Changes waiting to be sent');
  const items = useQueueView();
  const state = useSyncState();
  const warning = items
    ? staleWarning(
        items.map((i) => i.entry),
        Date.now(),
      )
    : null;
  return (
    <section className="screen">
      <div className="screen-head">
        <h1>Changes waiting to be sent</h1>
        <button type="button" className="button" onClick={() => void requestSync()}>
          Sync now
        </button>
      </div>
      {state?.authRequired && <p role="alert">Sign in again to send these changes.</p>}
      {warning && (
        <p className="banner" role="alert">
          {warning}
        </p>
      )}
      <div className="table-wrap">
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
            {items?.map((item) => {
              const { entry } = item;
              const entity = entityByName(entry.entity);
              const editable = entry.op !== 'delete' && entry.status !== 'sending' && entity.routes.edit;
              return (
                <tr key={entry.id} data-state={item.state}>
                  <td>{item.record}</td>
                  <td>{item.action}</td>
                  <td>{new Date(entry.createdAt).toLocaleString()}</td>
                  <td>{entry.attempts}</td>
                  <td>
                    {item.state}
                    {item.waitsFor && <small className="muted block">{item.waitsFor}</small>}
                  </td>
                  <td>
                    {item.failure && <strong className="block">{item.failure}</strong>}
                    {entry.lastError ?? ''}
                    {entry.status === 'conflict' && <ConflictPanel entry={entry} />}
                  </td>
                  <td className="actions">
                    <button
                      type="button"
                      className="button button-small"
                      disabled={entry.status === 'sending' || entry.status === 'conflict'}
                      onClick={() => void retryChange(entry.seq)}
                    >
                      Retry
                    </button>
                    {editable && (
                      <Link
                        to={`${entity.routes.edit}/$id`}
                        params={{ id: encodeRouteId(entry.key) }}
                        className="button button-small button-light"
                      >
                        Edit
                      </Link>
                    )}
                    <button
                      type="button"
                      className="button button-small button-danger"
                      disabled={entry.status === 'sending'}
                      onClick={() => void discardChange(entry)}
                    >
                      Discard
                    </button>
                  </td>
                </tr>
              );
            })}
            {items?.length === 0 && (
              <tr>
                <td colSpan={7} className="empty">
                  Every change has reached the server.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
