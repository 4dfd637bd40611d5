/**
 * Multipart bodies read as they arrive (@fastify/busboy), with each file written to a
 * temporary file on disk and hashed chunk by chunk on its way there. A 12 MB Add Chapter is
 * then never one buffer: no step holds the event loop for long (12 MB of multipart parsed
 * whole by the platform's formData() would delay every other request: bench/latency.mjs),
 * memory stays flat however many arrive, and the fingerprint of the request (api/fingerprint.ts)
 * takes the hash already made instead of reading the file again.
 *
 * Files come back as File objects backed by their temporary file (fs.openAsBlob), so the
 * handlers read them like any File (size, first bytes, content); the temporary files are removed
 * when the request is over (removeTempFiles, registered in app/start.ts before any route).
 */
import { createHash } from 'node:crypto';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import Busboy, { type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import type { Context, MiddlewareHandler } from 'hono';

/** A text field's largest value (the longest text a field takes is 65,535 characters). */
export const MAX_FIELD_BYTES = 1024 * 1024;
export const MAX_PARTS = 1000;
export const MAX_FILES = 20;

export type MultipartValue = string | File | (string | File)[];

/** The SHA-256 of files read from requests, made while they streamed in. */
const hashes = new WeakMap<Blob, string>();

/** The hash of a file read by readMultipart, if it was. */
export const knownHash = (blob: Blob): string | undefined => hashes.get(blob);

/** What to remove once each request is over. */
const leftovers = new WeakMap<Context, string[]>();

/** Removes the request's temporary files after it was answered, whatever happened. */
export const removeTempFiles: MiddlewareHandler = async (c, next) => {
  try {
    await next();
  } finally {
    const dirs = leftovers.get(c);
    if (dirs) await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
};

export class MultipartError extends Error {}

/** Reads a multipart body: text fields as text, files as disk-backed Files. */
export async function readMultipart(c: Context): Promise<Record<string, MultipartValue>> {
  const stream = c.req.raw.body;
  if (!stream) return {};
  const dir = await mkdtemp(join(tmpdir(), 'multipart-'));
  leftovers.set(c, [...(leftovers.get(c) ?? []), dir]);

  const body: Record<string, MultipartValue> = {};
  const put = (name: string, value: string | File) => {
    // `name[]` collects a list (as Hono's parseBody does); otherwise the last value counts.
    if (name.endsWith('[]')) {
      const list = body[name];
      body[name] = Array.isArray(list) ? [...list, value] : [value];
    } else body[name] = value;
  };

  let parser: BusboyInstance;
  try {
    parser = new Busboy({
      headers: { 'content-type': c.req.header('content-type') ?? '' },
      defCharset: 'utf8',
      limits: { fieldSize: MAX_FIELD_BYTES, parts: MAX_PARTS, files: MAX_FILES },
    });
  } catch {
    throw new MultipartError('no boundary');
  }

  const files: Promise<void>[] = [];
  let refused: string | null = null;
  let count = 0;
  parser.on('field', (name: string, value: string, _nameTruncated: boolean, truncated: boolean) => {
    if (truncated) refused = `field ${name} is too long`;
    else put(name, value);
  });
  parser.on(
    'file',
    (name: string, file: BusboyFileStream, filename: string, _encoding: string, type: string) => {
      const path = join(dir, String(count++));
      const hash = createHash('sha256');
      file.on('data', (chunk: Buffer) => hash.update(chunk));
      const stored = pipeline(file, createWriteStream(path)).then(async () => {
        const blob = await openAsBlob(path, { type });
        const received = new File([blob], filename ?? '', { type });
        hashes.set(received, hash.digest('hex'));
        put(name, received);
      });
      // Awaited below; handled now, so a part cut short by a failed body is no unhandled rejection.
      stored.catch(() => undefined);
      files.push(stored);
    },
  );
  for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'])
    parser.on(limit, () => {
      refused = 'too many parts';
    });

  try {
    await pipeline(Readable.fromWeb(stream as NodeReadableStream), parser);
    await Promise.all(files);
  } catch (err) {
    throw new MultipartError((err as Error).message);
  }
  if (refused) throw new MultipartError(refused);
  return body;
}
