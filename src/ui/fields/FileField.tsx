/**
 * A file input with the spec's hint and accept list, drawn like the other controls: a 'Choose
 * file' button, the chosen file's name and size, an image preview, and, where there is a
 * pointer, a drop area for a dragged file. The native input lies over the whole area, so
 * tapping anywhere opens the picker and the label, keyboard and screen readers work as usual.
 * On an edit form the current file shows first, with a remove cross or the rule's own button
 * ('Add New') that reveals the input (with the rule's prompt: 'Insert New Media?'); removing
 * sends nothing (api-contract §9.14: there is no way to delete a file), choosing a new one
 * replaces it. A field that takes several files on add (book pages) takes them all at once,
 * lists each with its name, size and preview, and lets one be taken out before saving.
 */
import { type DragEvent, useState } from 'react';
import { isPicture, useFileUrl } from './file-url';
import { formatBytes as size } from './format-bytes';
import { controlState, FieldError, type FieldProps, fieldClass, fieldId, hintId, Label } from './types';

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  pdf: 'application/pdf',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  odp: 'application/vnd.oasis.opendocument.presentation',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};

/** One chosen file of several: its name, size, a preview, and a button to take it out. */
function ChosenFile({ file, label, onRemove }: { file: File; label: string; onRemove: () => void }) {
  const url = useFileUrl({ folder: '', types: [], maxBytes: 0 }, file);
  return (
    <li className="file-chosen">
      {url && isPicture(file) && (
        <img src={url} alt={`Chosen ${label}: ${file.name}`} className="file-preview" />
      )}
      <span className="dropzone-name">
        {file.name} ({size(file.size)})
      </span>
      <button
        type="button"
        className="icon-button file-remove"
        aria-label={`Remove ${file.name}`}
        onClick={onRemove}
      >
        ×
      </button>
    </li>
  );
}

export function FileField(props: FieldProps) {
  const { spec, mode } = props;
  if (spec.several && mode === 'add') return <SeveralFilesField {...props} />;
  return <OneFileField {...props} />;
}

/** Several files, one record each (FieldSpec.several). */
function SeveralFilesField({ name, spec, value, onChange, required, error }: FieldProps) {
  const rule = spec.file!;
  const [over, setOver] = useState(false);
  const chosen = Array.isArray(value) ? (value as readonly File[]) : [];
  const accept = rule.types.map((t) => `.${t},${MIME[t] ?? ''}`).join(',');
  const add = (files: FileList | null) => onChange([...chosen, ...Array.from(files ?? [])]);
  return (
    <div className={fieldClass(error, true)}>
      <Label name={name} spec={spec} required={required} />
      <FieldError name={name} error={error} />
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for a pointer; keyboard and touch use the input inside */}
      <div
        className={`dropzone${over ? ' dropzone-over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          add(e.dataTransfer.files);
        }}
      >
        <input
          id={fieldId(name)}
          name={name}
          type="file"
          multiple
          accept={accept}
          className="dropzone-input"
          onChange={(e) => {
            add(e.target.files);
            // The same files may be chosen again after one was taken out.
            e.target.value = '';
          }}
          {...controlState(name, error, spec.hint)}
        />
        <span className="button button-light" aria-hidden="true">
          Choose files
        </span>
        <span className="dropzone-name" aria-hidden="true">
          {chosen.length === 0
            ? 'No file chosen'
            : `${chosen.length} file${chosen.length === 1 ? '' : 's'} chosen (${size(chosen.reduce((n, f) => n + f.size, 0))})`}
        </span>
        <span className="dropzone-drop muted" aria-hidden="true">
          or drop them here
        </span>
      </div>
      {chosen.length > 0 && (
        <ol className="files-chosen" aria-label="Files chosen, in page order">
          {chosen.map((file, i) => (
            <ChosenFile
              // biome-ignore lint/suspicious/noArrayIndexKey: the same file may be chosen twice; position tells them apart
              key={`${i}-${file.name}`}
              file={file}
              label={spec.label}
              onRemove={() => onChange(chosen.filter((_, j) => j !== i))}
            />
          ))}
        </ol>
      )}
      {spec.hint && (
        <small id={hintId(name)} className="muted">
          {spec.hint}
        </small>
      )}
    </div>
  );
}

function OneFileField({ name, spec, value, onChange, mode, required, error, originalName }: FieldProps) {
  const rule = spec.file!;
  const [replacing, setReplacing] = useState(false);
  const [over, setOver] = useState(false);
  const url = useFileUrl(rule, Array.isArray(value) ? null : value, originalName);
  const hint = mode === 'update' ? (rule.hintOnUpdate ?? spec.hint) : spec.hint;
  const accept = rule.types.map((t) => `.${t},${MIME[t] ?? ''}`).join(',');
  const showCurrent = mode === 'update' && typeof value === 'string' && value !== '' && !replacing;
  const chosen = value instanceof File ? value : null;

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file) onChange(file);
  };

  return (
    <div className={fieldClass(error, true)}>
      <Label name={name} spec={spec} required={required} />
      <FieldError name={name} error={error} />
      {showCurrent ? (
        <div className="file-current">
          {isPicture(value) ? (
            url && (
              <img
                src={url}
                alt={`Current ${spec.label}${originalName ? `: ${originalName}` : ''}`}
                className="file-preview"
              />
            )
          ) : (
            <a href={url ?? '#'} target="_blank" rel="noreferrer" className="button button-light file-link">
              {originalName || String(value)}
            </a>
          )}
          {rule.replaceLabel ? (
            <button type="button" className="button button-light" onClick={() => setReplacing(true)}>
              {rule.replaceLabel}
            </button>
          ) : (
            <button
              type="button"
              className="icon-button file-remove"
              aria-label={`Remove ${spec.label}`}
              onClick={() => setReplacing(true)}
            >
              ×
            </button>
          )}
        </div>
      ) : (
        <>
          {mode === 'update' && rule.replacePrompt && <span className="muted">{rule.replacePrompt}</span>}
          {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for a pointer; keyboard and touch use the input inside */}
          <div
            className={`dropzone${over ? ' dropzone-over' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(true);
            }}
            onDragLeave={() => setOver(false)}
            onDrop={drop}
          >
            <input
              id={fieldId(name)}
              name={name}
              type="file"
              accept={accept}
              className="dropzone-input"
              onChange={(e) => onChange(e.target.files?.[0] ?? '')}
              {...controlState(name, error, hint)}
            />
            <span className="button button-light" aria-hidden="true">
              Choose file
            </span>
            <span className="dropzone-name" aria-hidden="true">
              {chosen ? `${chosen.name} (${size(chosen.size)})` : 'No file chosen'}
            </span>
            <span className="dropzone-drop muted" aria-hidden="true">
              or drop it here
            </span>
          </div>
          {chosen && url && isPicture(chosen) && (
            <img src={url} alt={`Chosen ${spec.label}`} className="file-preview" />
          )}
        </>
      )}
      {hint && (
        <small id={hintId(name)} className="muted">
          {hint}
        </small>
      )}
    </div>
  );
}
