/**
 * The file of unsent changes: every waiting outbox entry with its files, the
 * local rows those entries need (records added offline, under their temporary ids) and the id
 * map entries they name, so that another browser or tablet can queue exactly the same changes
 * under exactly the same Idempotency-Keys.
 *
 * One JSON text: `{ format, version, checksum, body }`. Files travel inside as base64 with
 * their SHA-256, and every Blob in an entry or a row is replaced by `{ "$file": id }`. The
 * checksum is the SHA-256 of the body's JSON text: a file changed by hand, cut short or
 * damaged on the way is refused as a whole, nothing of it queued. It guards against accidents,
 * not against someone set on forging changes (they could recompute it; the server checks every
 * change it receives anyway, under the signed-in administrator).
 *
 * No React, no DOM: Blob, File, TextEncoder and crypto.subtle exist in workers and Node too.
 */
import type { IdMapping, Row } from '../database';
import type { NewEntry } from '../outbox/outbox-entry';

export const SAVED_QUEUE_FORMAT = 'textbook-admin/unsent-changes';
/** Bump when the body's shape changes in a way an older app cannot read. */
export const SAVED_QUEUE_VERSION = 1;

/** The refusals, in the administrator's words. */
export const NOT_A_QUEUE_FILE = 'This is not a file of unsent changes. Nothing was loaded.';
export const NEWER_QUEUE_FILE =
  'This file was saved by a newer version of the app. Update the app on this device, then load it again. Nothing was loaded.';
export const DAMAGED_QUEUE_FILE =
  'This file was changed or damaged after it was saved, so none of its changes were loaded.';

/** A change as the file carries it: without its place in this device's queue. */
export type SavedEntry = Omit<NewEntry, 'uploads' | 'unreachable'>;

export interface SavedRow {
  entity: string;
  row: Row;
}

export interface SavedQueue {
  /** When and where it was saved, and by whom (the administrator signed in then). */
  savedAt: number;
  device: string;
  savedBy: string | null;
  entries: SavedEntry[];
  rows: SavedRow[];
  idmap: IdMapping[];
}

interface SavedFile {
  id: string;
  name: string | null;
  type: string;
  lastModified: number | null;
  size: number;
  sha256: string;
  data: string;
}

interface Envelope {
  format: string;
  version: number;
  checksum: string;
  body: { queue: unknown; files: SavedFile[] };
}

export class SavedQueueError extends Error {}

const hex = (digest: ArrayBuffer) =>
  Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
const sha256 = async (bytes: BufferSource) => hex(await crypto.subtle.digest('SHA-256', bytes));

function toBase64(bytes: Uint8Array): string {
  let text = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Blob);

/** The value with every Blob replaced by a reference to its file; files collected on the way. */
async function withFileRefs(value: unknown, files: SavedFile[], seen: Map<Blob, string>): Promise<unknown> {
  if (value instanceof Blob) {
    const known = seen.get(value);
    if (known) return { $file: known };
    const id = `f${files.length + 1}`;
    seen.set(value, id);
    const bytes = new Uint8Array(await value.arrayBuffer());
    const file = value instanceof File ? value : null;
    files.push({
      id,
      name: file?.name ?? null,
      type: value.type,
      lastModified: file?.lastModified ?? null,
      size: bytes.length,
      sha256: await sha256(bytes),
      data: toBase64(bytes),
    });
    return { $file: id };
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => withFileRefs(v, files, seen)));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      if (v !== undefined) out[k] = await withFileRefs(v, files, seen);
    return out;
  }
  return value;
}

function withFiles(value: unknown, files: ReadonlyMap<string, Blob>): unknown {
  if (Array.isArray(value)) return value.map((v) => withFiles(v, files));
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$file') {
      const blob = files.get(String(value.$file));
      if (!blob) throw new SavedQueueError(DAMAGED_QUEUE_FILE);
      return blob;
    }
    return Object.fromEntries(keys.map((k) => [k, withFiles(value[k], files)]));
  }
  return value;
}

/** The file's text. */
export async function encodeSavedQueue(queue: SavedQueue): Promise<string> {
  const files: SavedFile[] = [];
  const body = { queue: await withFileRefs(queue, files, new Map()), files };
  const bodyText = JSON.stringify(body);
  const checksum = `sha256:${await sha256(new TextEncoder().encode(bodyText))}`;
  // The body is written as it was hashed, so the reader hashes the very same text back.
  return `{"format":${JSON.stringify(SAVED_QUEUE_FORMAT)},"version":${SAVED_QUEUE_VERSION},"checksum":${JSON.stringify(checksum)},"body":${bodyText}}`;
}

function checkShape(queue: unknown): asserts queue is SavedQueue {
  const q = queue as Partial<SavedQueue> | null;
  const ok =
    isPlainObject(q) &&
    typeof q.savedAt === 'number' &&
    typeof q.device === 'string' &&
    (q.savedBy === null || typeof q.savedBy === 'string') &&
    Array.isArray(q.entries) &&
    Array.isArray(q.rows) &&
    Array.isArray(q.idmap) &&
    q.entries.every(
      (e) =>
        isPlainObject(e) &&
        typeof e.id === 'string' &&
        typeof e.entity === 'string' &&
        typeof e.key === 'string' &&
        typeof e.op === 'string' &&
        isPlainObject(e.payload),
    ) &&
    q.rows.every((r) => isPlainObject(r) && typeof r.entity === 'string' && isPlainObject(r.row)) &&
    q.idmap.every((m) => isPlainObject(m) && typeof m.tempId === 'string' && typeof m.serverId === 'string');
  if (!ok) throw new SavedQueueError(DAMAGED_QUEUE_FILE);
}

/** Reads a file's text back; throws SavedQueueError with the administrator's message. */
export async function decodeSavedQueue(text: string): Promise<SavedQueue> {
  let envelope: Partial<Envelope>;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new SavedQueueError(NOT_A_QUEUE_FILE);
  }
  if (!isPlainObject(envelope) || envelope.format !== SAVED_QUEUE_FORMAT)
    throw new SavedQueueError(NOT_A_QUEUE_FILE);
  if (typeof envelope.version !== 'number' || envelope.version > SAVED_QUEUE_VERSION)
    throw new SavedQueueError(NEWER_QUEUE_FILE);
  // The body's text as written: from its key to the envelope's closing brace.
  const start = text.indexOf('"body":');
  const end = text.lastIndexOf('}');
  const bodyText = start < 0 ? '' : text.slice(start + '"body":'.length, end).trim();
  const checksum = `sha256:${await sha256(new TextEncoder().encode(bodyText))}`;
  if (envelope.checksum !== checksum || !isPlainObject(envelope.body))
    throw new SavedQueueError(DAMAGED_QUEUE_FILE);

  const files = new Map<string, Blob>();
  const listed = Array.isArray(envelope.body.files) ? envelope.body.files : [];
  for (const f of listed) {
    if (!isPlainObject(f) || typeof f.data !== 'string') throw new SavedQueueError(DAMAGED_QUEUE_FILE);
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = fromBase64(f.data);
    } catch {
      throw new SavedQueueError(DAMAGED_QUEUE_FILE);
    }
    if (bytes.length !== f.size || (await sha256(bytes)) !== f.sha256)
      throw new SavedQueueError(DAMAGED_QUEUE_FILE);
    const options = { type: f.type, ...(f.lastModified === null ? {} : { lastModified: f.lastModified }) };
    files.set(f.id, f.name === null ? new Blob([bytes], options) : new File([bytes], f.name, options));
  }
  const queue = withFiles(envelope.body.queue, files);
  checkShape(queue);
  return queue;
}

/** A name for the downloaded file: when it was saved, sortable. */
export function savedQueueFileName(savedAt: number): string {
  const stamp = new Date(savedAt).toISOString().slice(0, 16).replace(/[T:]/g, '-');
  return `unsent-changes-${stamp}.json`;
}
