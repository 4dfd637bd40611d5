/**
 * The outbox screen (rule 8): every change waiting, sending, failed or in conflict, with its
 * record, action, time, attempts, state (and what it waits for) and the last error in plain
 * words (the technical text behind a disclosure); Sync now; Retry, Edit and Discard per
 * change; conflicts settled side by side; a warning when the oldest change has waited more
 * than a day. Sync now and Retry always answer in the status line (sending, sent, or why not).
 * Discard acts at once and offers Undo for a few seconds; changes discarded unsent are listed
 * until cleared, so the screen never claims they reached the server. A large file on its way
 * shows its progress (percent and size) in its change's state, whether this window or the
 * service worker sends it. Each change shows who made it; another administrator's changes say
 * they wait for their author (issue 12).
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import {
  changeLabel,
  clearDiscarded,
  type DiscardedChange,
  discardChange,
  type QueueItem,
  retryAndSend,
  sendNow,
  staleWarning,
  undoDiscardChange,
} from '../app/outbox';
import { plainError } from '../app/sync-status';
import { entityByName } from '../contract/entities';
import { ConflictPanel } from '../ui/ConflictPanel';
import { useDiscardNotes, useQueueView } from '../ui/outbox-data';
import { ScrollTable } from '../ui/ScrollTable';
import { SavedQueuePanel } from '../ui/saved-queue/SavedQueuePanel';
import { retryFeedback, sendFeedback } from '../ui/send-feedback';
import { useSyncState } from '../ui/sync-state';
import { progressOf, UploadProgressLine, useUploadProgress } from '../ui/upload-progress';
import { usePageTitle } from '../ui/use-page-title';

/** How long Undo is offered after a Discard; it waits while the pointer or focus is on it. */
const UNDO_MS = 10_000;

function LastError({ item }: { item: QueueItem }) {
  const error = plainError(item.entry.lastError);
  return (
    <>
      {item.failure && <strong className="block">{item.failure}</strong>}
      {error?.text}
      {error?.technical && (
        <details className="technical">
          <summary>Technical detail</summary>
          <code>{error.technical}</code>
        </details>
      )}
    </>
  );
}

function UndoBar({
  discarded,
  onDone,
}: {
  discarded: DiscardedChange & { label: string };
  onDone: () => void;
}) {
  const done = useRef(onDone);
  done.current = onDone;
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => done.current(), UNDO_MS);
    return () => clearTimeout(timer);
  }, [held]);
  const undo = async () => {
    await undoDiscardChange(discarded);
    done.current();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pointer and focus only pause the timer
    <div
      className="undo-bar"
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <span>Discarded, not sent: {discarded.label}.</span>
      <button type="button" className="button button-light" onClick={() => void undo()}>
        Undo
      </button>
    </div>
  );
}

export function OutboxScreen() {
  usePageTitle('Changes waiting to be sent');
  const items = useQueueView();
  const state = useSyncState();
  const notes = useDiscardNotes();
  const progress = useUploadProgress();
  const [sending, setSending] = useState(false);
  const [feedback, setFeedback] = useState('');
  const [undoable, setUndoable] = useState<(DiscardedChange & { label: string })[]>([]);
  const othersAuthors = [...new Set((items ?? []).filter((i) => i.heldFor).map((i) => i.author ?? ''))];
  const warning = items
    ? staleWarning(
        items.map((i) => i.entry),
        Date.now(),
      )
    : null;

  const syncNow = async () => {
    setSending(true);
    setFeedback('Sending…');
    setFeedback(sendFeedback(await sendNow()));
    setSending(false);
  };

  const retry = async (item: QueueItem) => {
    const label = changeLabel(item);
    setSending(true);
    setFeedback(`Sending ${label}…`);
    setFeedback(retryFeedback(label, await retryAndSend(item.entry.seq)));
    setSending(false);
  };

  const discard = async (item: QueueItem) => {
    const discarded = await discardChange(item);
    if (discarded) setUndoable((all) => [...all, { ...discarded, label: changeLabel(item) }]);
    else setFeedback(`${changeLabel(item)} is being sent and cannot be discarded now.`);
  };

  return (
    <section className="screen">
      <div className="screen-head">
        <h1>Changes waiting to be sent</h1>
        <button type="button" className="button" disabled={sending} onClick={() => void syncNow()}>
          {sending ? 'Sending…' : 'Sync now'}
        </button>
      </div>
      <p className="send-feedback" role="status">
        {feedback}
      </p>
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
      <div className="undo-bars">
        {undoable.map((d) => (
          <UndoBar
            key={d.entry.id}
            discarded={d}
            onDone={() => setUndoable((all) => all.filter((x) => x.entry.id !== d.entry.id))}
          />
        ))}
      </div>
      <ScrollTable label="Changes waiting to be sent">
        <table className="table table-cards">
          <thead>
            <tr>
              <th scope="col">Record</th>
              <th scope="col">Action</th>
              <th scope="col">Made by</th>
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
                  <td className="cell-primary" data-label="Record">
                    {item.record}
                  </td>
                  <td data-label="Action">{item.action}</td>
                  <td data-label="Made by">{item.author ?? '—'}</td>
                  <td data-label="Saved">{new Date(entry.createdAt).toLocaleString()}</td>
                  <td data-label="Attempts">{entry.attempts}</td>
                  <td data-label="State">
                    {item.state}
                    {item.heldFor && <small className="muted block">{item.heldFor}</small>}
                    {item.waitsFor && <small className="muted block">{item.waitsFor}</small>}
                    {entry.status !== 'failed' &&
                      progressOf(progress, entry.seq).map((p) => (
                        <span className="block" key={p.field}>
                          <UploadProgressLine progress={p} label={entity.fields[p.field]?.label ?? p.field} />
                        </span>
                      ))}
                  </td>
                  <td data-label="Last error">
                    <LastError item={item} />
                    {entry.status === 'conflict' && <ConflictPanel entry={entry} />}
                  </td>
                  <td className="cell-action" data-label="Actions">
                    <span className="actions">
                      <button
                        type="button"
                        className="button button-small"
                        disabled={
                          sending ||
                          entry.status === 'sending' ||
                          entry.status === 'conflict' ||
                          item.heldFor !== null
                        }
                        onClick={() => void retry(item)}
                      >
                        Retry
                      </button>
                      {editable &&
                        (entity.single ? (
                          // A single document's edit screen is its whole route.
                          <Link to={entity.routes.edit} className="button button-small button-light">
                            Edit
                          </Link>
                        ) : (
                          <Link
                            to={`${entity.routes.edit}/$id`}
                            params={{ id: entry.key }}
                            className="button button-small button-light"
                          >
                            Edit
                          </Link>
                        ))}
                      <button
                        type="button"
                        className="button button-small button-danger"
                        disabled={entry.status === 'sending'}
                        onClick={() => void discard(item)}
                      >
                        Discard
                      </button>
                    </span>
                  </td>
                </tr>
              );
            })}
            {items?.length === 0 && (
              <tr>
                <td colSpan={8} className="empty">
                  {notes.length === 0 ? 'Every change has reached the server.' : 'Nothing is waiting.'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </ScrollTable>
      {notes.length > 0 && (
        <section className="discarded" aria-labelledby="discarded-title">
          <h2 id="discarded-title">Discarded changes were not sent</h2>
          <ul>
            {notes.map((n) => (
              <li key={n.id}>
                {n.label} <span className="muted">(discarded {new Date(n.at).toLocaleString()})</span>
              </li>
            ))}
          </ul>
          <button type="button" className="button button-light" onClick={() => void clearDiscarded()}>
            Clear this list
          </button>
        </section>
      )}
      <SavedQueuePanel />
    </section>
  );
}
