/**
 * A file input with the spec's hint and accept list. On an edit form the current file shows
 * first, with a remove cross that reveals the input ('Insert New Media?'); removing sends
 * nothing (api-contract §9.14: there is no way to delete a file), choosing a new one replaces it.
 */
import { useState } from 'react';
import { isPdf, useFileUrl } from '../file-url';
import { type FieldProps, fieldId, Label } from './types';

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  pdf: 'application/pdf',
  mp3: 'audio/mpeg',
};

export function FileField({ name, spec, value, onChange, mode }: FieldProps) {
  const rule = spec.file!;
  const [replacing, setReplacing] = useState(false);
  const url = useFileUrl(rule, value);
  const hint = mode === 'update' ? (rule.hintOnUpdate ?? spec.hint) : spec.hint;
  const accept = rule.types.map((t) => `.${t},${MIME[t] ?? ''}`).join(',');
  const showCurrent = mode === 'update' && typeof value === 'string' && value !== '' && !replacing;

  return (
    <div className="field">
      <Label name={name} spec={spec} />
      {showCurrent ? (
        <div className="file-current">
          {isPdf(value) ? (
            <a href={url ?? '#'} target="_blank" rel="noreferrer">
              {String(value)}
            </a>
          ) : (
            url && <img src={url} alt={`Current ${spec.label}`} className="file-preview" />
          )}
          <button
            type="button"
            className="file-remove"
            aria-label={`Remove ${spec.label}`}
            onClick={() => setReplacing(true)}
          >
            ×
          </button>
        </div>
      ) : (
        <>
          {mode === 'update' && <span className="muted">Insert New Media?</span>}
          <input
            id={fieldId(name)}
            name={name}
            type="file"
            accept={accept}
            onChange={(e) => onChange(e.target.files?.[0] ?? '')}
          />
          {value instanceof File && url && !isPdf(value) && (
            <img src={url} alt={`Chosen ${spec.label}`} className="file-preview" />
          )}
        </>
      )}
      {hint && <small className="muted">{hint}</small>}
    </div>
  );
}
