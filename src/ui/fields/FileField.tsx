/**
 * A file input with the spec's hint and accept list, drawn like the other controls: a 'Choose
 * file' button, the chosen file's name and size, an image preview, and, where there is a
 * pointer, a drop area for a dragged file. The native input lies over the whole area, so
 * tapping anywhere opens the picker and the label, keyboard and screen readers work as usual.
 * On an edit form the current file shows first, with a remove cross or the rule's own button
 * ('Add New') that reveals the input (with the rule's prompt: 'Insert New Media?'); removing
 * sends nothing (api-contract §9.14: there is no way to delete a file), choosing a new one
 * replaces it.
 */
import { type DragEvent, useState } from 'react';
import { isPdf, useFileUrl } from '../file-url';
import { controlState, FieldError, type FieldProps, fieldClass, fieldId, hintId, Label } from './types';

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  pdf: 'application/pdf',
  mp3: 'audio/mpeg',
};

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function FileField({ name, spec, value, onChange, mode, error }: FieldProps) {
  const rule = spec.file!;
  const [replacing, setReplacing] = useState(false);
  const [over, setOver] = useState(false);
  const url = useFileUrl(rule, value);
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
      <Label name={name} spec={spec} />
      <FieldError name={name} error={error} />
      {showCurrent ? (
        <div className="file-current">
          {isPdf(value) ? (
            <a href={url ?? '#'} target="_blank" rel="noreferrer" className="button button-light">
              {String(value)}
            </a>
          ) : (
            url && <img src={url} alt={`Current ${spec.label}`} className="file-preview" />
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
          {chosen && url && !isPdf(chosen) && (
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
