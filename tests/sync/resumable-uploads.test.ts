/**
 * Large files on unstable connections, against the real server over HTTP through the fault
 * proxy: a file above RESUMABLE_FROM_BYTES travels ahead of its record in resumable chunks
 * (tus), a cut connection resumes from the server's offset, the upload's URL kept in the
 * outbox entry survives a lapsed session and a restart of the client, and the record's
 * request names the finished upload. A server without the endpoint (legacy mode) gets the
 * file inside one multipart request, as before.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chapterEntity } from '../../src/contract/entities';
import { patchSyncState, readSyncState } from '../../src/db/meta';
import { mutate } from '../../src/db/mutate';
import { openLocalDb } from '../../src/db/open';
import type { StoredUpload } from '../../src/db/outbox/outbox-entry';
import { createApi } from '../../src/sync/api/api-client';
import { signIn } from '../../src/sync/api/sign-in-requests';
import { replay } from '../../src/sync/replay';
import { subscribeUploadProgress, type UploadProgress } from '../../src/sync/uploads/progress-channel';
import { CHUNK_BYTES, uploadResumable } from '../../src/sync/uploads/resumable-upload';
import { RESUMABLE_FROM_BYTES } from '../../src/sync/uploads/upload-files';
import { cookieFetch } from '../helpers/cookie-fetch';
import type { FaultProxy } from '../helpers/fault-proxy';
import { ADMIN, api, signIn as serverSignIn, type TestServer } from '../helpers/server';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();
const MB = 1024 * 1024;

/** A file of `size` bytes that is a PNG by its first bytes and random after them. */
function largePng(size: number, name = 'scan.png'): File {
  const bytes = new Uint8Array(randomBytes(size));
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new File([bytes], name, { type: 'image/png' });
}

/** An upload's memory in a variable, as the outbox entry would keep it. */
function keptUpload() {
  let kept: StoredUpload | undefined;
  const memory = {
    load: async () => kept,
    save: async (upload: StoredUpload) => {
      kept = upload;
    },
  };
  return { memory, kept: () => kept };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const blobHash = async (blob: Blob) => sha256(new Uint8Array(await blob.arrayBuffer()));

const TUS_CREATE = /\/uploads\/resumable\/$/;
const requests = (proxy: FaultProxy, method: string, pattern: RegExp) =>
  proxy.log.filter((r) => r.method === method && pattern.test(r.target));

/** Adds a chapter under the demo data's first book, with `file` as its image. */
async function queueChapter(db: Parameters<typeof mutate>[0], title: string, file: File) {
  const parents = { class_id: '1', subject_id: '1', series_id: '1', book_id: '1' };
  const values = { ...parents, chapter_title: title, chapter_description: '', chapter_image: file };
  return mutate(db, { op: 'add', entity: chapterEntity, values });
}

/** The server's chapters by title, with the hash of each one's stored file. */
async function serverChapters(server: TestServer): Promise<{ title: string; hash: string | null }[]> {
  const client = api(server.apiRoot, await serverSignIn(server.apiRoot));
  const rows = (await client.get(chapterEntity.api.list)).body.chapters as { chapter_id: number }[];
  const out = [];
  for (const { chapter_id } of rows) {
    const row = (await client.get(chapterEntity.api.get, { chapter_id })).body.chapter;
    const image = row.chapter_image as string | null;
    const stored = image ? await readFile(join(server.dataDir, 'uploads', 'chapter_content', image)) : null;
    out.push({ title: row.chapter_title as string, hash: stored && sha256(stored) });
  }
  return out;
}

const partialUploads = async (server: TestServer) =>
  (await readdir(join(server.dataDir, 'tus'))).filter((f) => !f.endsWith('.json'));

describe('a resumable upload', () => {
  it('cut three times mid-chunk, resumes from the server offset and arrives once, intact', async () => {
    const { server, proxy, ctx } = await fixtures.proxied();
    const file = largePng(12 * MB);
    const { memory, kept } = keptUpload();
    const progress: number[] = [];

    proxy.cutAfterBytes(3 * MB, 3);
    const result = await uploadResumable(ctx.api, file, {
      memory,
      onProgress: (sent) => progress.push(sent),
    });

    expect(result.kind).toBe('done');
    const id = result.kind === 'done' ? result.reference.replace(/^tus:/, '') : '';
    expect(await partialUploads(server)).toEqual([id]);
    expect(sha256(await readFile(join(server.dataDir, 'tus', id)))).toBe(await blobHash(file));
    // Once: one upload created, the cut chunks resumed after asking for the offset (HEAD).
    expect(requests(proxy, 'POST', /resumable/)).toHaveLength(1);
    expect(proxy.log.filter((r) => r.fault === 'cut')).toHaveLength(3);
    expect(requests(proxy, 'HEAD', /resumable/).length).toBeGreaterThanOrEqual(3);
    expect(proxy.bytesFromClients).toBeLessThan(1.3 * file.size);
    expect(kept()).toMatchObject({ size: file.size, url: expect.stringContaining(id) });
    expect(progress.at(-1)).toBe(file.size);
  });

  it('over fetch, which reports no progress, chunks are paced: a first of 256 KB, then about a second each', async () => {
    const { ctx } = await fixtures.proxied();
    const file = largePng(6 * MB);
    const confirmed: number[] = [];
    const result = await uploadResumable(ctx.api, file, {
      memory: keptUpload().memory,
      onProgress: (_sent, done) => confirmed.push(done),
    });
    expect(result.kind).toBe('done');
    const steps = [...new Set(confirmed)].filter((bytes) => bytes > 0);
    expect(steps[0]).toBe(256 * 1024);
    expect(steps.at(-1)).toBe(file.size);
    // More steps than whole chunks would make (two), none past the chunk size.
    expect(steps.length).toBeGreaterThan(2);
    steps.forEach((bytes, i) => {
      expect(bytes - (steps[i - 1] ?? 0)).toBeLessThanOrEqual(CHUNK_BYTES);
    });
  });

  it('kept URL of a finished upload: sent again, it costs one HEAD and no bytes', async () => {
    const { proxy, ctx } = await fixtures.proxied();
    const file = largePng(6 * MB);
    const { memory } = keptUpload();
    const first = await uploadResumable(ctx.api, file, { memory });
    const before = proxy.bytesFromClients;
    const again = await uploadResumable(ctx.api, file, { memory });
    expect(again).toEqual(first);
    expect(proxy.bytesFromClients - before).toBeLessThan(2048);
    // Another file of the same size is another upload, whatever the kept URL says.
    const other = await uploadResumable(ctx.api, largePng(6 * MB), { memory });
    expect(other.kind === 'done' && other.reference).not.toBe(first.kind === 'done' && first.reference);
  });
});

describe('a large file through the outbox', () => {
  it('an add with an 8 MB image over a cut connection: the record has the file, hash equal', async () => {
    const { server, proxy, ctx } = await fixtures.proxied({ seedDemo: true });
    const file = largePng(8 * MB);
    expect(file.size).toBeGreaterThan(RESUMABLE_FROM_BYTES);
    await queueChapter(ctx.db, 'Large scan', file);
    const events: UploadProgress[] = [];
    const unsubscribe = subscribeUploadProgress((p) => events.push(p));
    proxy.cutAfterBytes(3 * MB, 2);
    try {
      await drain(ctx);
    } finally {
      unsubscribe();
    }

    expect(await ctx.db.outbox.count()).toBe(0);
    expect(await serverChapters(server)).toContainEqual({ title: 'Large scan', hash: await blobHash(file) });
    expect((await serverChapters(server)).filter((c) => c.title === 'Large scan')).toHaveLength(1);
    // The record's request named the upload; the upload was moved, not copied.
    expect(requests(proxy, 'POST', TUS_CREATE)).toHaveLength(1);
    expect(await partialUploads(server)).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      field: 'chapter_image',
      sent: file.size,
      confirmed: file.size,
      total: file.size,
    });
  });

  it('the server answering an upload ends the outage the last pull recorded, before the change has its reply', async () => {
    const { ctx } = await fixtures.proxied({ seedDemo: true });
    await patchSyncState(ctx.db, { lastError: 'TypeError: Failed to fetch' });
    await queueChapter(ctx.db, 'Scan after an outage', largePng(6 * MB));
    // Read at the first piece the server confirmed: the change itself is still to be sent.
    let whileSending: Promise<string | null> | undefined;
    const unsubscribe = subscribeUploadProgress((p) => {
      if (p.confirmed > 0) whileSending ??= readSyncState(ctx.db).then((s) => s.lastError);
    });
    try {
      await replay(ctx);
    } finally {
      unsubscribe();
    }
    expect(await whileSending).toBeNull();
    expect(await ctx.db.outbox.count()).toBe(0);
  });

  it('resumes after a lapsed session and a restart of the client, from the URL kept in the entry', async () => {
    const { server, proxy, ctx } = await fixtures.proxied({ seedDemo: true });
    const file = largePng(9 * MB);
    await queueChapter(ctx.db, 'Resumed scan', file);
    // Once a first piece is confirmed, the next one meets an expired session. (The first
    // piece may be smaller than a chunk: a loaded machine starts with paced pieces.)
    let confirmedBefore = 0;
    const unsubscribe = subscribeUploadProgress((p) => {
      if (confirmedBefore > 0 || p.confirmed === 0) return;
      confirmedBefore = p.confirmed;
      proxy.failNext(/^PATCH /, { status: 401 });
    });
    let report: Awaited<ReturnType<typeof replay>>;
    try {
      report = await replay(ctx);
    } finally {
      unsubscribe();
    }
    expect(report.paused).toBe(true);
    const [entry] = await ctx.db.outbox.toArray();
    expect(entry.uploads?.chapter_image).toMatchObject({ size: file.size });
    expect(entry.payload.chapter_image).toBeInstanceOf(Blob);
    const sentBefore = proxy.bytesFromClients;

    // A new client on the same local store (a reload, or the service worker restarted).
    const name = ctx.db.name;
    ctx.db.close();
    const db = openLocalDb(name);
    await db.open();
    const restarted = {
      db,
      api: createApi({ root: `${proxy.url}/api`, fetch: cookieFetch(), timeoutMs: 5000 }),
    };
    expect(await signIn(restarted.api, ADMIN.username, ADMIN.password)).toMatchObject({ ok: true });
    await patchSyncState(db, { authRequired: false });
    await drain(restarted);
    db.close();

    expect(await serverChapters(server)).toContainEqual({
      title: 'Resumed scan',
      hash: await blobHash(file),
    });
    // One upload, resumed: the second client sent the rest, not the whole file again.
    expect(requests(proxy, 'POST', TUS_CREATE)).toHaveLength(1);
    expect(confirmedBefore).toBeGreaterThan(0);
    expect(proxy.bytesFromClients - sentBefore).toBeLessThan(file.size - confirmedBefore + MB);
  });

  it('a lost reply to the record: sent again under its key, one record and one file', async () => {
    const { server, proxy, ctx } = await fixtures.proxied({ seedDemo: true });
    const file = largePng(6 * MB);
    await queueChapter(ctx.db, 'Once only', file);
    proxy.dropRepliesTo(/addchapters/);
    await drain(ctx);
    expect(proxy.dropped).toBe(1);
    const chapters = (await serverChapters(server)).filter((c) => c.title === 'Once only');
    expect(chapters).toEqual([{ title: 'Once only', hash: await blobHash(file) }]);
    const stored = await readdir(join(server.dataDir, 'uploads', 'chapter_content'));
    expect(stored).toHaveLength(1);
  });
});

describe('a server without resumable uploads (legacy mode)', () => {
  it('gets each large file inside one multipart request, and is asked only once', async () => {
    const { server, proxy, ctx } = await fixtures.proxied({ legacy: true, seedDemo: true });
    const first = largePng(6 * MB, 'first.png');
    await queueChapter(ctx.db, 'Legacy one', first);
    await drain(ctx);
    const second = largePng(5 * MB, 'second.png');
    await queueChapter(ctx.db, 'Legacy two', second);
    await drain(ctx);

    expect(requests(proxy, 'POST', /resumable/)).toHaveLength(1);
    expect(requests(proxy, 'POST', /addchapters/)).toHaveLength(2);
    const chapters = await serverChapters(server);
    expect(chapters).toContainEqual({ title: 'Legacy one', hash: await blobHash(first) });
    expect(chapters).toContainEqual({ title: 'Legacy two', hash: await blobHash(second) });
  });
});
