/** The assignment screen's table: each record offered, with its parents' names and its box. */
import type { EntityDescription } from '../../contract/entity';
import { parentNamesText } from '../../contract/parent-names';
import type { Row } from '../data';
import { ScrollTable } from '../ScrollTable';

export function ChoiceTable({
  target,
  label,
  shown,
  loading,
  chosen,
  toggle,
}: {
  target: EntityDescription;
  /** The table's name (the screen's title). */
  label: string;
  shown: readonly Row[];
  /** The records are still being read. */
  loading: boolean;
  chosen: ReadonlySet<string>;
  toggle(key: string): void;
}) {
  return (
    <ScrollTable label={label}>
      <table className="table table-cards">
        <thead>
          <tr>
            <th scope="col">S.no</th>
            <th scope="col">{target.names.One} Name</th>
            <th scope="col">Assign</th>
          </tr>
        </thead>
        <tbody aria-busy={loading}>
          {shown.map((row, i) => {
            const key = String(row[target.key]);
            const label = String(row[target.title] ?? '');
            const parents = parentNamesText(target, row);
            return (
              <tr key={key}>
                <td data-label="S.no" className="cell-sno">
                  {i + 1}
                </td>
                <td data-label={`${target.names.One} Name`} className="cell-primary">
                  {label}
                  {parents && <small className="muted block">{parents}</small>}
                </td>
                <td data-label="Assign">
                  <label className="check-target">
                    <input type="checkbox" checked={chosen.has(key)} onChange={() => toggle(key)} />
                    <span className="visually-hidden">
                      Assign {label}
                      {parents ? ` (${parents})` : ''}
                    </span>
                  </label>
                </td>
              </tr>
            );
          })}
          {!loading && shown.length === 0 && (
            <tr>
              <td colSpan={3} className="empty">
                No {target.names.many} found.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </ScrollTable>
  );
}
