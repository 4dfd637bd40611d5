/**
 * The outbox screen (rule 8): every change waiting, sending, failed or in conflict, with its
 * record, action, time, attempts, state (and what it waits for) and the last error in plain
 * words (the technical text behind a disclosure); Sync now; Retry, Edit and Discard per
 * change; conflicts settled side by side; a warning when the oldest change has waited more
 * than a day. Sync now and Retry always answer in the status line (sending, sent, or why not),
 * an answer the connection or the queue has since made untrue goes, and the queue emptying is said.
 * Discard acts at once and offers Undo for a few seconds (a change others wait for asks first,
 * naming them, and discards them with it or keeps everything); changes discarded unsent are listed
 * until cleared, so the screen never claims they reached the server. A large file on its way
 * shows its progress (percent and size) in its change's state, whether this window or the
 * service worker sends it. Each change shows who made it; another administrator's changes say
 * they wait for their author, as only the author's own session may send them.
 *
 * This file holds the screen's commands and layout; its parts are in outbox-screen/: the
 * notices above the table, one change's row, Undo, and the discarded list.
 */
import { useState } from 'react';
import {
  changeLabel,
  discardChanges,
  type QueueItem,
  retryAndSend,
  sendNow,
  strandedChanges,
} from '../app/outbox/outbox-queue';
import { strandQuestion } from '../ui/outbox/discard-question';
import { useDiscardNotes, useQueueView } from '../ui/outbox/outbox-data';
import { retryFeedback, sendFeedback } from '../ui/outbox/send-feedback';
import { useSendFeedback } from '../ui/outbox/use-send-feedback';
import { ScrollTable } from '../ui/ScrollTable';
import { SavedQueuePanel } from '../ui/saved-queue/SavedQueuePanel';
import { useConnected } from '../ui/sync-status/sync-state';
import { useUploadProgress } from '../ui/sync-status/upload-progress-line';
import { usePageTitle } from '../ui/use-page-title';
import { DiscardedList } from './outbox-screen/DiscardedList';
import { OutboxNotices } from './outbox-screen/OutboxNotices';
import { OutboxRow, type RowCommands } from './outbox-screen/OutboxRow';
import { type Undoable, UndoBar } from './outbox-screen/UndoBar';

export function OutboxScreen() {
  usePageTitle('Changes waiting to be sent');
  const items = useQueueView();
  const notes = useDiscardNotes();
  const progress = useUploadProgress();
  const connected = useConnected();
  const [sending, setSending] = useState(false);
  const [feedback, setFeedback] = useSendFeedback(items?.length, notes.length, sending);
  const [undoable, setUndoable] = useState<Undoable[]>([]);

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
    const stranded = await strandedChanges(item);
    if (stranded.length > 0 && !window.confirm(strandQuestion(item, stranded))) return;
    const changes = await discardChanges([item, ...stranded]);
    const label =
      stranded.length > 0
        ? `${changeLabel(item)} and ${stranded.length} change${stranded.length === 1 ? '' : 's'} waiting for it`
        : changeLabel(item);
    if (changes) setUndoable((all) => [...all, { changes, label }]);
    else setFeedback(`${changeLabel(item)} is being sent and cannot be discarded now.`);
  };

  const commands: RowCommands = {
    sending,
    retry: (item) => void retry(item),
    discard: (item) => void discard(item),
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
      <OutboxNotices items={items} />
      <div className="undo-bars">
        {undoable.map((d) => (
          <UndoBar
            key={d.changes[0]?.entry.id}
            discarded={d}
            onDone={() => setUndoable((all) => all.filter((x) => x !== d))}
          />
        ))}
      </div>
      {/* Cards up to a wide desktop: every change's Retry, Edit, Discard and its conflict's
          choice stay on screen, never behind a sideways scroll. */}
      <ScrollTable label="Changes waiting to be sent" cardsBelow={80}>
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
            {items?.map((item) => (
              <OutboxRow
                key={item.entry.id}
                item={item}
                commands={commands}
                progress={progress}
                connected={connected}
              />
            ))}
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
      <DiscardedList notes={notes} />
      <SavedQueuePanel />
    </section>
  );
}
