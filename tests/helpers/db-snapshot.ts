/**
 * What "nothing was written" means in a test: every table of the server's database by row
 * count and a checksum of its rows, and every file under the uploads folder by size. Taken
 * before and after a run of refused requests, the two must be equal.
 *
 * Left out: `idempotency_keys` (a refusal under a key is stored, as a reply to replay) and
 * `sessions` (a request touches its session's last-seen time); both by the caller's choice.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestServer } from './server';

export const SKIPPED_TABLES = ['idempotency_keys', 'sessions'] as const;

export type TableSnapshot = Record<string, { rows: number; checksum: string | null }>;

export async function snapshotTables(
  query: TestServer['query'],
  skip: readonly string[] = SKIPPED_TABLES,
): Promise<TableSnapshot> {
  const tables = await query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: TableSnapshot = {};
  for (const { name } of tables) {
    if (skip.includes(name)) continue;
    // The whole row as text, sorted: any changed value, added or removed row changes the sum.
    const [row] = await query<{ rows: string | number; checksum: string | null }>(
      `SELECT count(*) AS rows, md5(string_agg(t::text, '|' ORDER BY t::text)) AS checksum FROM "${name}" t`,
    );
    out[name] = { rows: Number(row.rows), checksum: row.checksum };
  }
  return out;
}

/** Every file under `dir` (relative path → size); empty when the folder does not exist. */
export async function snapshotFiles(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const walk = async (at: string, prefix: string) => {
    const names = await readdir(at).catch(() => [] as string[]);
    for (const name of names) {
      const full = join(at, name);
      const info = await stat(full);
      if (info.isDirectory()) await walk(full, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = info.size;
    }
  };
  await walk(dir, '');
  return out;
}

/** Both snapshots of a test server: its tables and its uploads folder. */
export async function snapshotServer(server: TestServer) {
  return {
    tables: await snapshotTables(server.query),
    uploads: await snapshotFiles(join(server.dataDir, 'uploads')),
  };
}
