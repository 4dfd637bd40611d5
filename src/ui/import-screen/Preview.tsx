import type { CheckedFile } from '../../app/csv';
import { dateOf } from './phase';

/** Problems shown at once: a file of thousands of bad rows still draws quickly. */
const SHOWN_PROBLEMS = 500;

/** A checked file: rows ready, rows up to date, columns ignored, problems by line, and Import. */
export function Preview({ file, onImport }: { file: CheckedFile; onImport: () => void }) {
  const { check } = file;
  const shown = check.problems.slice(0, SHOWN_PROBLEMS);
  return (
    <div className="import-preview">
      <p>
        {check.ready} {check.ready === 1 ? 'row' : 'rows'} ready to import
      </p>
      {check.upToDate > 0 && <p>{check.upToDate} already up to date</p>}
      {check.unknown.length > 0 && <p>Columns ignored: {check.unknown.join(', ')}</p>}
      {file.importedAt !== null && <p>This file was imported on {dateOf(file.importedAt)}.</p>}
      {check.problems.length > 0 && (
        <table className="table">
          <caption>Rows with problems (not imported)</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Field</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a line may have several problems
              <tr key={i}>
                <td>{p.line}</td>
                <td>{p.field}</td>
                <td>{p.problem}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {check.problems.length > shown.length && (
        <p>And {check.problems.length - shown.length} more problems.</p>
      )}
      <button type="button" className="button" disabled={check.ready === 0} onClick={onImport}>
        Import {check.ready} {check.ready === 1 ? 'row' : 'rows'}
      </button>
    </div>
  );
}
