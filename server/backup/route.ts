/**
 * GET /internal/backup: the running server's own backup of an embedded install (archive.ts),
 * for `npm run backup`. The server holds PGlite's folder, so only it can dump the database
 * while it takes writes.
 *
 * Who may ask: whoever can read DATA_DIR, which holds everything anyway. At each start the
 * server writes a fresh random token, with its own URL, into DATA_DIR/backup-access.json
 * (readable by its user only) and removes it when it stops; the request must carry the token
 * (`Authorization: Bearer`) and come from this machine. Anything else is a 404, as
 * if the path did not exist; it is outside the API root, so no session or API rule applies.
 */
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Hono } from 'hono';
import type { Database } from '../db';
import { isLoopbackHost } from '../http/client';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';
import { sameSecret } from '../kit/same-secret';
import { packBackup, stageBackup } from './archive';

export const BACKUP_PATH = '/internal/backup';
export const ACCESS_FILE = 'backup-access.json';

/** What `npm run backup` reads to reach the running server. */
export interface BackupAccess {
  url: string;
  token: string;
  pid: number;
}

export interface BackupOptions {
  dataDir: string;
  db: Pick<Database, 'snapshot'>;
  token: string;
}

export const newBackupToken = () => randomBytes(32).toString('hex');

export function registerBackupRoute(app: Hono<AppEnv>, options: BackupOptions): void {
  app.get(BACKUP_PATH, async (c) => {
    const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
    const address = socket?.remoteAddress;
    // This machine: loopback, or the address the server listens on (a HOST that is not loopback).
    const local = !!address && (isLoopbackHost(address) || address === socket?.localAddress);
    const given = /^Bearer (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
    if (!local || !sameSecret(given, options.token)) return fail(c, 404, TEXT.notFound);
    const staging = await stageBackup(options.dataDir, options.db);
    return new Response(Readable.toWeb(packBackup(staging)) as ReadableStream, {
      headers: {
        'Content-Type': 'application/gzip',
        'Content-Disposition': 'attachment; filename="backup.tar.gz"',
        'Cache-Control': 'no-store',
      },
    });
  });
}

/** Publishes the way in for `npm run backup`; returns what removes it again. */
export async function publishBackupAccess(
  dataDir: string,
  access: BackupAccess,
): Promise<() => Promise<void>> {
  const file = join(dataDir, ACCESS_FILE);
  await writeFile(file, JSON.stringify(access), { mode: 0o600 });
  return () => rm(file, { force: true });
}
