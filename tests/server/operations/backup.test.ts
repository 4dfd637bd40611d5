/**
 * Backups of an embedded install: `npm run backup` while the server runs and
 * takes writes, `npm run restore` into a fresh folder, and a server started on it finds every
 * record that had committed before the backup began, with its file. A restore refuses a
 * folder that is not empty; with no server running, the tool reads the database itself.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../server/app/start';
import { backup, type Output, restore } from '../../../server/backup/cli';
import { openPglite } from '../../../server/db/pglite';
import { bookEntity } from '../../../src/contract/entities';
import { ADMIN, api, signIn } from '../../helpers/server';
import { form, sampleFile } from '../support/files';

const B = bookEntity.api;
let dir: string;
const quiet: Output = { log: () => {}, error: () => {} };
const errors = (): Output & { lines: string[] } => {
  const lines: string[] = [];
  return { lines, log: () => {}, error: (l) => void lines.push(l) };
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backup-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const start = (dataDir: string) =>
  startServer({ port: 0, dataDir, adminPassword: ADMIN.password, seedDemo: true });

/** A book with a cover of its own bytes; resolves to its id and the cover's bytes, once committed. */
async function addBook(client: ReturnType<typeof api>, n: number) {
  const cover = sampleFile('png', `cover-${n}.png`, 1000 + n);
  const reply = await client.post(
    B.add,
    form({
      selectedClass: 1,
      selectedSubject: 1,
      selectedSeries: 1,
      bookName: `Backed up ${n}`,
      bookCode: `BK-${n}`,
      bookCover: cover,
    }),
  );
  expect(reply.body.success).toBe(true);
  return { id: reply.body.id as number, cover: new Uint8Array(await cover.arrayBuffer()) };
}

describe('a backup taken while the server takes writes', () => {
  let server: RunningServer;
  const dataDir = () => join(dir, 'live');
  const archive = () => join(dir, 'live.tar.gz');

  it('restores into a fresh folder with every record committed before it began, and its file', async () => {
    server = await start(dataDir());
    const client = api(server.apiRoot, await signIn(server.apiRoot));
    const committed: Awaited<ReturnType<typeof addBook>>[] = [];
    for (let n = 0; n < 3; n++) committed.push(await addBook(client, n));

    // Writes go on while the backup runs; those that committed before it began are known.
    let writing = true;
    const writer = (async () => {
      for (let n = 100; writing; n++) committed.push(await addBook(client, n));
    })();
    while (committed.length < 6) await new Promise((r) => setTimeout(r, 20));
    const before = [...committed];
    const made = await backup([archive()], { DATA_DIR: dataDir() }, quiet);
    writing = false;
    await writer;
    expect(made).toBe(0);
    expect((await stat(archive())).size).toBeGreaterThan(0);
    // Nothing of the backup is left in DATA_DIR but the server's own folders.
    expect((await readdir(dataDir())).filter((n) => n.startsWith('.backup-'))).toEqual([]);
    await server.close();

    const fresh = join(dir, 'restored');
    expect(await restore([archive()], { DATA_DIR: fresh }, quiet)).toBe(0);
    const restored = await start(fresh);
    try {
      const restoredClient = api(restored.apiRoot, await signIn(restored.apiRoot));
      for (const { id, cover } of before) {
        const { book } = (await restoredClient.get(B.get, { book_id: id })).body;
        expect(book.book_name).toMatch(/^Backed up /);
        const file = await fetch(`${restored.apiRoot}/uploads/book_cover/${book.book_cover}`);
        expect(file.status).toBe(200);
        expect(new Uint8Array(await file.arrayBuffer())).toEqual(cover);
      }
    } finally {
      await restored.close();
    }
  }, 240_000);

  it('refuses to restore into a folder that is not empty', async () => {
    const out = errors();
    expect(await restore([archive()], { DATA_DIR: dataDir() }, out)).toBe(1);
    expect(out.lines).toEqual([`${dataDir()} is not empty: restore into an empty or new folder (DATA_DIR).`]);
  });

  it('reads the database itself when no server runs, and refuses PostgreSQL', async () => {
    const offline = join(dir, 'offline.tar.gz');
    expect(await backup([offline], { DATA_DIR: dataDir() }, quiet)).toBe(0);
    const target = join(dir, 'offline');
    expect(await restore([offline], { DATA_DIR: target }, quiet)).toBe(0);
    const [original, copy] = [await openPglite(dataDir()), await openPglite(target)];
    try {
      const count = 'SELECT count(*)::int AS n FROM books';
      expect(await copy.query(count)).toEqual(await original.query(count));
    } finally {
      await original.close();
      await copy.close();
    }
    const out = errors();
    expect(await backup([offline], { DATA_DIR: dataDir(), DATABASE_URL: 'postgres://x' }, out)).toBe(1);
    expect(out.lines[0]).toMatch(/^DATABASE_URL is set: back PostgreSQL up with pg_dump/);
  }, 240_000);
});
