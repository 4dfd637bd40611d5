/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (scripts/data-tool.mjs), for an
 * install on the embedded database, with the environment of `npm start` (DATA_DIR).
 *
 * Backup: while the server runs it alone may read PGlite's folder, so the archive is asked of
 * it (route.ts, through DATA_DIR/backup-access.json); when no server runs on the folder, the
 * tool opens the database itself. Either way the archive is consistent (archive.ts), and it is
 * written beside FILE first, then renamed, so FILE is never half an archive.
 *
 * Restore: into an empty or new DATA_DIR only (a non-empty one is refused, exit 1): the files
 * are unpacked and PGlite loads the database's folder from the archive. The next start sweeps
 * away any file whose write had not committed when the backup was taken.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { extract } from 'tar';
import { openPglite, PGLITE_EXTENSIONS } from '../db/pglite';
import { ARCHIVE_FORMAT, DATABASE_ENTRY, MANIFEST_ENTRY, packBackup, stageBackup } from './archive';
import { ACCESS_FILE, BACKUP_PATH, type BackupAccess } from './route';

export interface Output {
  log(line: string): void;
  error(line: string): void;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** How a running server on `dataDir` is reached, or null when none runs. */
async function runningServer(dataDir: string): Promise<BackupAccess | null> {
  try {
    const access = JSON.parse(await readFile(join(dataDir, ACCESS_FILE), 'utf8')) as BackupAccess;
    return isAlive(access.pid) ? access : null;
  } catch {
    return null;
  }
}

async function archiveFrom(dataDir: string, out: Output): Promise<Readable> {
  const access = await runningServer(dataDir);
  if (!access) {
    out.log(`No server is running on ${dataDir}: reading the database directly.`);
    const db = await openPglite(dataDir);
    try {
      return packBackup(await stageBackup(dataDir, db));
    } finally {
      await db.close();
    }
  }
  const res = await fetch(`${access.url}${BACKUP_PATH}`, {
    headers: { Authorization: `Bearer ${access.token}` },
  }).catch((err: Error) => {
    throw new Error(`Could not reach the server at ${access.url} (process ${access.pid}): ${err.message}`);
  });
  if (!res.ok || !res.body)
    throw new Error(`The server at ${access.url} answered ${res.status} to the backup`);
  return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
}

export async function backup(args: readonly string[], env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const file = args[0];
  if (!file) {
    out.error('Usage: npm run backup -- FILE');
    return 2;
  }
  if (env.DATABASE_URL) {
    out.error(
      'DATABASE_URL is set: back PostgreSQL up with pg_dump, and the files as the README says ("Backups").',
    );
    return 1;
  }
  const dataDir = env.DATA_DIR || './data';
  if ((await readdir(join(dataDir, 'pgdata')).catch(() => [])).length === 0) {
    out.error(`There is no database in ${dataDir} to back up.`);
    return 1;
  }
  const partial = `${file}.partial`;
  try {
    await pipeline(await archiveFrom(dataDir, out), createWriteStream(partial));
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    out.error(`Backup failed: ${(err as Error).message}`);
    return 1;
  }
  out.log(`Backed up ${resolve(dataDir)} to ${resolve(file)}.`);
  if (env.S3_BUCKET)
    out.log(`The files are in the bucket ${env.S3_BUCKET}: back it up as the README says ("Backups").`);
  return 0;
}

export async function restore(args: readonly string[], env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const file = args[0];
  if (!file) {
    out.error('Usage: npm run restore -- FILE');
    return 2;
  }
  if (env.DATABASE_URL) {
    out.error('DATABASE_URL is set: restore PostgreSQL with pg_restore, as the README says ("Backups").');
    return 1;
  }
  const dataDir = env.DATA_DIR || './data';
  const existing = await readdir(dataDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (existing && existing.length > 0) {
    out.error(`${resolve(dataDir)} is not empty: restore into an empty or new folder (DATA_DIR).`);
    return 1;
  }
  try {
    await mkdir(dataDir, { recursive: true });
    await extract({ file, cwd: dataDir, strict: true });
    const manifest = JSON.parse(await readFile(join(dataDir, MANIFEST_ENTRY), 'utf8')) as { format?: number };
    if (manifest.format !== ARCHIVE_FORMAT) throw new Error(`unknown archive format ${manifest.format}`);
    const dump = await readFile(join(dataDir, DATABASE_ENTRY));
    const db = await PGlite.create({
      dataDir: join(dataDir, 'pgdata'),
      loadDataDir: new Blob([dump]),
      extensions: PGLITE_EXTENSIONS,
    });
    await db.close();
    await rm(join(dataDir, DATABASE_ENTRY));
    await rm(join(dataDir, MANIFEST_ENTRY));
  } catch (err) {
    // Leave the folder as it was found, so that the restore can simply be run again.
    for (const name of await readdir(dataDir).catch(() => []))
      await rm(join(dataDir, name), { recursive: true, force: true });
    out.error(`Restore failed: ${(err as Error).message}`);
    return 1;
  }
  out.log(`Restored ${resolve(file)} into ${resolve(dataDir)}: start the server with DATA_DIR=${dataDir}.`);
  return 0;
}

/** `node dist-server/data-tool.js backup|restore FILE`: the exit code is the outcome. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...args] = argv;
  const out: Output = { log: (l) => console.log(l), error: (l) => console.error(l) };
  if (command === 'backup') return backup(args, env, out);
  if (command === 'restore') return restore(args, env, out);
  out.error('Usage: npm run backup -- FILE | npm run restore -- FILE');
  return 2;
}
