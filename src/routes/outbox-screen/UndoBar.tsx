/**
 * Undo after a Discard: offered for a few seconds, and held while the pointer or focus is on it,
 * so nobody loses the button while reaching for it.
 */
import { useEffect, useRef, useState } from 'react';
import { type DiscardedChange, undoDiscardChanges } from '../../app/outbox/outbox-queue';

/** How long Undo is offered after a Discard; it waits while the pointer or focus is on it. */
const UNDO_MS = 10_000;

/** One Discard: the change and those discarded with it, undone together. */
export interface Undoable {
  changes: DiscardedChange[];
  label: string;
}

export function UndoBar({ discarded, onDone }: { discarded: Undoable; onDone: () => void }) {
  const done = useRef(onDone);
  done.current = onDone;
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => done.current(), UNDO_MS);
    return () => clearTimeout(timer);
  }, [held]);
  const undo = async () => {
    await undoDiscardChanges(discarded.changes);
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
