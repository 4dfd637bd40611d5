import { type RefObject, useState } from 'react';

/**
 * The CSV file to import, drawn like the forms' file fields (a button, the file's name, a drop
 * area where there is a pointer) over the native input, which stays the control.
 */
export function CsvFilePicker({
  input,
  disabled,
  chosen,
  onChoose,
}: {
  input: RefObject<HTMLInputElement | null>;
  disabled: boolean;
  /** Whether the import holds a file (not when it waits for one, as after "Import another file"). */
  chosen: boolean;
  onChoose: (file: File | undefined) => void;
}) {
  const [name, setName] = useState('');
  const [over, setOver] = useState(false);
  const take = (file: File | undefined) => {
    setName(file?.name ?? '');
    onChoose(file);
  };
  return (
    <div className="field">
      <label htmlFor="csv-file">CSV file</label>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for a pointer; keyboard and touch use the input inside */}
      <div
        className={`dropzone${over ? ' dropzone-over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(!disabled);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (!disabled) take(e.dataTransfer.files[0]);
        }}
      >
        <input
          ref={input}
          id="csv-file"
          type="file"
          accept=".csv,text/csv"
          className="dropzone-input"
          disabled={disabled}
          onChange={(e) => take(e.target.files?.[0])}
        />
        <span className="button button-light" aria-hidden="true">
          Choose file
        </span>
        <span className="dropzone-name" aria-hidden="true">
          {(chosen && name) || 'No file chosen'}
        </span>
        <span className="dropzone-drop muted" aria-hidden="true">
          or drop it here
        </span>
      </div>
    </div>
  );
}
