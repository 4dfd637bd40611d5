/**
 * A table's frame for narrow screens. Above `cardsBelow` the table keeps its columns and
 * scrolls sideways inside this frame when it is wider: the frame shows that it scrolls (a
 * shadow on each side that hides columns, and a line saying so) and the row's name column
 * stays in view (styles.css: `.cell-primary`). Below it the rows of a `table-cards` table become
 * cards (label: value), so nothing scrolls: 640 px for lists, wider for a table whose every
 * row carries actions that must stay in reach (the outbox). The frame is a focusable region
 * while it scrolls, so the keyboard can scroll it too.
 */
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { useMedia } from './use-media';

export function ScrollTable({
  label,
  cardsBelow = 40,
  children,
}: {
  label: string;
  /** The width in rem below which rows are cards. */
  cardsBelow?: number;
  children: ReactNode;
}) {
  const cards = useMedia(`(max-width: ${cardsBelow - 0.02}rem)`);
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ left: false, right: false });

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => {
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
    };
    // No first call here: the observer's first call comes after the frame's layout, before its
    // paint, where a call here forced a layout of the page before the rows had come.
    el.addEventListener('scroll', update, { passive: true });
    const sizes = new ResizeObserver(update);
    sizes.observe(el);
    if (el.firstElementChild) sizes.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', update);
      sizes.disconnect();
    };
  }, []);

  const scrolls = more.left || more.right;
  // While it scrolls, the frame is a named region the keyboard can reach and scroll.
  const region = scrolls ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {};
  return (
    <div
      className="table-frame"
      data-cards={cards || undefined}
      data-more-left={more.left || undefined}
      data-more-right={more.right || undefined}
    >
      {scrolls && (
        <p className="table-hint muted" aria-hidden="true">
          More columns: scroll sideways {more.right ? '→' : '←'}
        </p>
      )}
      <div ref={box} className="table-wrap" {...region}>
        {children}
      </div>
    </div>
  );
}
