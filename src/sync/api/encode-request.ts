/**
 * A WireRequest (src/contract/wire-request.ts) as the API client sends it: JSON, or FormData
 * with each file under a name a server can take its extension from.
 */
import type { WireRequest, WireValue } from '../../contract/wire-request';
import type { RequestOptions } from './api-client';

const EXTENSION: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'audio/mpeg': 'mp3',
  'video/mp4': 'mp4',
};

/**
 * The chosen file's own name; a Blob that lost it (some IndexedDB implementations store a
 * File as a plain Blob) gets the field's name with the extension of its type, which is what
 * a server deriving the extension from the name needs.
 */
export function fileName(blob: Blob, field: string): string {
  const name = (blob as File).name;
  if (name) return name;
  const ext = EXTENSION[blob.type];
  return ext ? `${field}.${ext}` : field;
}

function formData(body: Record<string, WireValue>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(body)) {
    if (v instanceof Blob) form.append(k, v, fileName(v, k));
    else form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return form;
}

export function requestOptions(request: WireRequest, idempotencyKey?: string): RequestOptions {
  const options: RequestOptions = { method: request.method };
  if (Object.keys(request.query).length > 0) options.query = request.query;
  if (idempotencyKey) options.idempotencyKey = idempotencyKey;
  if (request.method === 'POST') {
    if (request.encoding === 'multipart') options.form = formData(request.body ?? {});
    else options.json = request.body ?? {};
  }
  return options;
}

/** Whether a request carries a file: then it travels alone, as multipart. */
export const carriesFile = (request: WireRequest) =>
  Object.values(request.body ?? {}).some((v) => v instanceof Blob);
