/**
 * One change in the outbox table: its record, action, author, time and attempts, its state (what
 * it waits for, a large file's progress), the last error in plain words with the technical text
 * behind a disclosure, a conflict side by side, and Retry, Edit and Discard.
 */
import { Link } from '@tanstack/react-router';
import type { QueueItem } from '../../app/outbox/outbox-queue';
import { plainError } from '../../app/sync-status/plain-error';
import type { UploadProgress } from '../../app/sync-status/upload-progress';
import { entityByName } from '../../contract/entities';
import { formatBytes } from '../../ui/fields/format-bytes';
import { ConflictPanel } from '../../ui/outbox/ConflictPanel';
import {
  progressOf,
  UploadProgressLine,
  type useUploadProgress,
} from '../../ui/sync-status/upload-progress-line';

export interface RowCommands {
  /** A send is under way (Sync now or a Retry): Retry waits. */
  sending: boolean;
  retry(item: QueueItem): void;
  discard(item: QueueItem): void;
}

export function OutboxRow({
  item,
  commands,
  progress,
  connected,
}: {
  item: QueueItem;
  commands: RowCommands;
  /** Files on their way (read once for the whole table). */
  progress: ReturnType<typeof useUploadProgress>;
  /** The top bar says Online: a change being sent is said to be sending only then. */
  connected: boolean;
}) {
  const { entry } = item;
  const entity = entityByName(entry.entity);
  const sendingNow = entry.status === 'sending' && connected;
  return (
    <tr data-state={item.state}>
      <td className="cell-primary" data-label="Record">
        {item.record}
      </td>
      <td data-label="Action">{item.action}</td>
      <td data-label="Made by">{item.author ?? '—'}</td>
      <td data-label="Saved">{new Date(entry.createdAt).toLocaleString()}</td>
      <td data-label="Attempts">{entry.attempts}</td>
      <td data-label="State">
        {entry.status === 'sending' && !sendingNow ? 'Waiting' : item.state}
        {item.heldFor && <small className="muted block">{item.heldFor}</small>}
        {item.waitsFor && <small className="muted block">{item.waitsFor}</small>}
        {entry.status !== 'failed' &&
          progressOf(progress, entry.seq).map((p) => (
            <FileProgress
              key={p.field}
              progress={p}
              label={entity.fields[p.field]?.label ?? p.field}
              sendingNow={sendingNow}
            />
          ))}
      </td>
      <td data-label="Last error">
        {/* A conflict's panel says what happened itself: the error is not said twice. */}
        {entry.status === 'conflict' ? <ConflictPanel entry={entry} /> : <LastError item={item} />}
      </td>
      <td className="cell-action" data-label="Actions">
        <EntryActions item={item} commands={commands} />
      </td>
    </tr>
  );
}

/**
 * A large file's progress while it is being sent; otherwise how much of it the server already
 * has, where the next try goes on from.
 */
function FileProgress({
  progress,
  label,
  sendingNow,
}: {
  progress: UploadProgress;
  label: string;
  sendingNow: boolean;
}) {
  if (sendingNow)
    return (
      <span className="block">
        <UploadProgressLine progress={progress} label={label} />
      </span>
    );
  if (progress.confirmed === 0) return null;
  return (
    <small className="muted block">
      {label}: {formatBytes(progress.confirmed)} of {formatBytes(progress.total)} already on the server; the
      rest is sent at the next try.
    </small>
  );
}

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

/**
 * Retry (only once a try has failed: refused, or not delivered and waiting for its next try; a
 * conflict has its own choice), Edit (not for a delete, nor while it is being sent) and Discard.
 */
function EntryActions({ item, commands }: { item: QueueItem; commands: RowCommands }) {
  const { entry } = item;
  const entity = entityByName(entry.entity);
  const editable = entry.op !== 'delete' && entry.status !== 'sending' && entity.routes.edit;
  const tried = entry.status === 'failed' || (entry.status !== 'conflict' && entry.lastError != null);
  return (
    <span className="actions">
      {tried && (
        <button
          type="button"
          className="button button-small"
          disabled={commands.sending || entry.status === 'sending' || item.heldFor !== null}
          onClick={() => commands.retry(item)}
        >
          Retry
        </button>
      )}
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
        onClick={() => commands.discard(item)}
      >
        Discard
      </button>
    </span>
  );
}
