/**
 * The backup archive of an embedded install: one gzipped tar holding
 * - `backup.json`: its format and when it was made;
 * - `database.tar`: PGlite's data folder as PGlite dumps it (`dumpDataDir`), which a new
 *   PGlite loads as it is (`loadDataDir`);
 * - `uploads/`: the stored files, pending marks included (server/uploads/journal.ts).
 *
 * Consistency while the server takes writes: the dump is taken between transactions, and in
 * the same moment, before any write may start, every file of uploads/ is hard-linked into a
 * staging folder (a link per file: metadata only, the bytes stay where they are). A write that
 * committed before the backup began is in the dump and its files are linked; a file removed
 * afterwards lives on in its link; a file written by a transaction that had not committed
 * carries its pending mark, so the restored server's sweep removes it. The archive is then
 * packed from the staging folder at leisure, and the folder removed.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { create } from 'tar';
import type { Database } from '../db';

export const ARCHIVE_FORMAT = 1;
export const DATABASE_ENTRY = 'database.tar';
export const MANIFEST_ENTRY = 'backup.json';

/** A hard link, or a copy where the file system has none (the writes are held meanwhile). */
async function linkTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true }).catch(() => []);
  await mkdir(to, { recursive: true });
  for (const entry of entries) {
    const [source, target] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isFile()) await link(source, target).catch(() => copyFile(source, target));
  }
}

/**
 * Stages a consistent backup of `dataDir` (its database through `db`, its uploads/) in a new
 * folder inside it, and returns that folder.
 */
export async function stageBackup(dataDir: string, db: Pick<Database, 'snapshot'>): Promise<string> {
  if (!db.snapshot) throw new Error('Only the embedded database is backed up this way');
  // Inside DATA_DIR: the same file system as uploads/, so that links are possible.
  const staging = join(dataDir, `.backup-${randomBytes(6).toString('hex')}`);
  await mkdir(staging);
  try {
    const dump = await db.snapshot(() => linkTree(join(dataDir, 'uploads'), join(staging, 'uploads')));
    await writeFile(join(staging, DATABASE_ENTRY), new Uint8Array(await dump.arrayBuffer()));
    await writeFile(
      join(staging, MANIFEST_ENTRY),
      JSON.stringify({ format: ARCHIVE_FORMAT, made: new Date().toISOString() }),
    );
    return staging;
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}

/** The staged backup as a gzipped tar stream; the staging folder goes when the stream ends or fails. */
export function packBackup(staging: string): Readable {
  // node-tar's stream is a Minipass: read through its async iterator as a Node stream.
  const pack = create({ cwd: staging, gzip: true, portable: true }, [
    MANIFEST_ENTRY,
    DATABASE_ENTRY,
    'uploads',
  ]);
  const stream = Readable.from(pack as AsyncIterable<Uint8Array>, { objectMode: false });
  // 'close' follows the end and a destroy alike (a client that went away).
  stream.once('close', () => void rm(staging, { recursive: true, force: true }));
  return stream;
}
