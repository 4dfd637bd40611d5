/**
 * A row's More disclosure on a tablet (ARCHITECTURE.md, "The screens on a tablet"): the values
 * of the columns a narrow screen leaves out (ListColumn.priority: 'medium' below 1024 px, 'low'
 * below 1280 px), each under its header, behind a native details/summary, so the keyboard
 * (Enter, Space) and screen readers (expanded, collapsed) use it like any disclosure. The
 * values are drawn only while it is open, so a page of 100 rows draws no second copies. The
 * CSS ("Column priority" in styles.css) shows the disclosure, and each value in it, exactly
 * where its column is hidden; on a phone the row is a card that shows every value anyway.
 */
import { useState } from 'react';
import type { ColumnPriority } from '../../contract/entity';
import type { ColumnView } from '../columns';
import type { Row } from '../data';

/** The class that hides a column's cells where its priority says so; none for 'high'. */
export function priorityClass(priority: ColumnPriority | undefined): string | undefined {
  return priority && priority !== 'high' ? `col-${priority}` : undefined;
}

export function RowMore({ row, columns }: { row: Row; columns: readonly ColumnView[] }) {
  const [open, setOpen] = useState(false);
  const moved = columns.filter((c) => !c.primary && priorityClass(c.priority));
  if (moved.length === 0) return null;
  // Shown wherever its first column hides: below 1280 px with a 'low' one, else below 1024 px.
  const from = moved.some((c) => c.priority === 'low') ? 'low' : 'medium';
  return (
    <details className={`row-more row-more-${from}`} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="button button-small button-light">More</summary>
      {open && (
        <dl>
          {moved.map((c) => (
            <div key={c.header} className={`more-${c.priority}`}>
              <dt>{c.header}</dt>
              <dd>{c.cell(row)}</dd>
            </div>
          ))}
        </dl>
      )}
    </details>
  );
}
