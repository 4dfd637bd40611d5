import { bulkTexts as t } from './bulk-texts';
import type { Refused } from './use-bulk-run';

/** The rows the last action left as they were, with the reason (the first 50, then a count). */
export function RefusedReport({ refused, byDelete }: { refused: readonly Refused[]; byDelete: boolean }) {
  return (
    <div className="bulk-report" role="alert">
      <strong>{byDelete ? t.notDeleted(refused.length) : t.notChanged(refused.length)}</strong>
      <ul>
        {refused.slice(0, 50).map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed report; names may repeat
          <li key={i}>
            {r.name}: {r.reason}
          </li>
        ))}
      </ul>
      {refused.length > 50 && <p>And {refused.length - 50} more.</p>}
      {byDelete && <p>They stay selected.</p>}
    </div>
  );
}
