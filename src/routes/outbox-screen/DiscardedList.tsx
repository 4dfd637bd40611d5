/**
 * Changes discarded unsent, listed until cleared, so the screen never claims they reached the
 * server.
 */
import { clearDiscarded } from '../../app/outbox/outbox-queue';
import type { useDiscardNotes } from '../../ui/outbox/outbox-data';

export function DiscardedList({ notes }: { notes: ReturnType<typeof useDiscardNotes> }) {
  if (notes.length === 0) return null;
  return (
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
  );
}
