import { useState } from 'react';
import type { CheckedFile } from '../../app/csv';
import type { EntityNames } from '../../contract/entity';
import { dateOf } from './phase';

/** Problems shown at once: a file of thousands of bad rows still draws quickly. */
const SHOWN_PROBLEMS = 500;

/**
 * Rows without an ID that name an existing record by its e-mail: how many would change it, and
 * the choice to update those records or to skip the rows (the unchanged ones change nothing).
 */
function MatchedRows({
  file,
  names,
  skip,
  onSkip,
}: {
  file: CheckedFile;
  names: EntityNames;
  skip: boolean;
  onSkip: (skip: boolean) => void;
}) {
  const { update, unchanged } = file.check.matched;
  const found = update + unchanged;
  if (found === 0) return null;
  const said = `${found} ${found === 1 ? 'row names an existing' : 'rows name existing'} ${found === 1 ? names.one : names.many} by e-mail: ${update} would update ${found === 1 ? 'it' : 'them'}, ${unchanged} unchanged.`;
  if (update === 0) return <p>{said}</p>;
  return (
    <fieldset className="import-matched">
      <legend>{said}</legend>
      <label>
        <input type="radio" name="matched" checked={!skip} onChange={() => onSkip(false)} /> Update those{' '}
        {names.many}
      </label>
      <label>
        <input type="radio" name="matched" checked={skip} onChange={() => onSkip(true)} /> Skip those rows:
        add only the new ones
      </label>
    </fieldset>
  );
}

/** A checked file: rows ready, rows up to date, columns ignored, problems by line, and Import. */
export function Preview({
  file,
  names,
  onImport,
}: {
  file: CheckedFile;
  names: EntityNames;
  onImport: (skipMatched: boolean) => void;
}) {
  const { check } = file;
  const shown = check.problems.slice(0, SHOWN_PROBLEMS);
  const [skip, setSkip] = useState(false);
  const importing = check.ready - (skip ? check.matched.update : 0);
  return (
    <div className="import-preview">
      <p>
        {check.ready} {check.ready === 1 ? 'row' : 'rows'} ready to import
      </p>
      {check.upToDate > 0 && <p>{check.upToDate} already up to date</p>}
      <MatchedRows file={file} names={names} skip={skip} onSkip={setSkip} />
      {check.unknown.length > 0 && <p>Columns ignored: {check.unknown.join(', ')}</p>}
      {file.importedAt !== null && <p>This file was imported on {dateOf(file.importedAt)}.</p>}
      {check.problems.length > 0 && (
        <table className="table">
          <caption>Rows with problems (not imported)</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">{names.One}</th>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a line may have several problems
              <tr key={i}>
                <td>{p.line}</td>
                <td>{p.name}</td>
                <td>{p.field}</td>
                <td className="cell-value">{p.value}</td>
                <td>{p.problem}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {check.problems.length > shown.length && (
        <p>And {check.problems.length - shown.length} more problems.</p>
      )}
      <button type="button" className="button" disabled={importing === 0} onClick={() => onImport(skip)}>
        Import {importing} {importing === 1 ? 'row' : 'rows'}
      </button>
    </div>
  );
}
