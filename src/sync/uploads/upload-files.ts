/**
 * Large files go ahead of their record. Before an entry's request goes to a server with
 * resumable uploads, each file in it larger than RESUMABLE_FROM_BYTES is uploaded in
 * resumable chunks (resumable-upload.ts), and the request names the finished upload
 * (`tus:<id>`) instead of carrying the file. Only the request changes: the entry keeps its
 * Blob until the record's request is confirmed (rule 1), and keeps each upload's URL
 * (`entry.uploads`), so that a resend resumes the upload instead of starting it again.
 *
 * A server without the endpoint (the PHP API) gets the file inside the request, as the
 * legacy client sends it; its answer is remembered per API client, like batches.
 */
import { entityByName } from '../../contract/entities';
import { wireFields } from '../../contract/entity';
import { RESUMABLE_FROM_BYTES } from '../../contract/resumable';
import type { WireRequest } from '../../contract/wire-request';
import type { LocalDb } from '../../db/database';
import type { OutboxEntry } from '../../db/outbox/outbox-entry';
import type { ApiClient } from '../api/api-client';
import { classify, type Verdict } from '../classify';
import { serverAnswers } from '../recovery';
import { publishUploadProgress } from './progress-channel';
import { nameOf, type UploadMemory, uploadResumable } from './resumable-upload';

export { RESUMABLE_FROM_BYTES };

/** Whether the server behind an API client (known by its fetch) has the endpoint. */
const supportByTransport = new WeakMap<typeof fetch, boolean>();

/** An upload's URL kept in its outbox entry, under the field's name. */
function entryMemory(db: LocalDb, seq: number, field: string): UploadMemory {
  return {
    load: async () => (await db.outbox.get(seq))?.uploads?.[field],
    save: (upload) =>
      db.transaction('rw', db.outbox, async () => {
        const entry = await db.outbox.get(seq);
        // Discarded meanwhile: nothing left to resume.
        if (entry) await db.outbox.update(seq, { uploads: { ...entry.uploads, [field]: upload } });
      }),
  };
}

/** The files of the request that travel ahead of it. */
function largeFiles(entry: OutboxEntry, request: WireRequest) {
  if (entry.op !== 'add' && entry.op !== 'update') return [];
  return wireFields(entityByName(entry.entity), entry.op).flatMap(([field, spec]) => {
    const value = spec.kind === 'file' ? request.body?.[spec.wire] : undefined;
    return value instanceof Blob && value.size > RESUMABLE_FROM_BYTES
      ? [{ field, wire: spec.wire, blob: value }]
      : [];
  });
}

/**
 * The request to send for `entry`: its large files uploaded and named by reference, or as
 * built when there are none or the server cannot take them. A verdict when an upload
 * stopped: the entry waits and retries, waits for a sign-in, or fails, like any request.
 */
export async function prepareFiles(
  ctx: { db: LocalDb; api: ApiClient },
  entry: OutboxEntry,
  request: WireRequest,
): Promise<WireRequest | Exclude<Verdict, { kind: 'done' }>> {
  const transport = ctx.api.fetch;
  if (request.encoding !== 'multipart' || !transport || supportByTransport.get(transport) === false)
    return request;
  const large = largeFiles(entry, request);
  if (large.length === 0) return request;

  const { seq } = entry;
  const body = { ...request.body };
  // Said once: the top bar stops saying the server cannot be reached while a file goes.
  let answered = false;
  const onAnswer = () => {
    if (!answered) void serverAnswers(ctx.db);
    answered = true;
  };
  for (const { field, wire, blob } of large) {
    const result = await uploadResumable(ctx.api, blob, {
      memory: entryMemory(ctx.db, seq, field),
      onProgress: (sent, confirmed, total) =>
        publishUploadProgress({ seq, field, name: nameOf(blob), sent, confirmed, total }),
      onAnswer,
    });
    if (result.kind === 'unsupported') {
      supportByTransport.set(transport, false);
      return request;
    }
    if (result.kind === 'stopped') {
      const verdict = classify(result.outcome, entry.op);
      if (verdict.kind !== 'done') return verdict;
      return {
        kind: 'failed',
        message: 'The server ended the upload with an answer not understood',
        status: 200,
      };
    }
    supportByTransport.set(transport, true);
    body[wire] = result.reference;
  }
  return { ...request, body };
}
