/**
 * The parts of bench/server-lists.mjs that write: the server CPU an applied change costs (a
 * single legacy write, an item of a batch) and a bulk insert of as many students as the seed
 * made, straight into the database, as an import or a restore would.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { cpuSnapshot } from './cpu.mjs';

const ADD_CLASS = 'Masterfilter/Classes/addclasses.php';
const BATCH = 'sync/batch';
const BATCH_ITEMS = 50;

/** CPU ms of the server process, and of the PostgreSQL cluster's processes when there is one. */
function serverCpu(serverPid, clusterData) {
  const node = cpuSnapshot(serverPid).server;
  if (!clusterData) return { node, db: 0 };
  const postmaster = Number(readFileSync(join(clusterData, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return { node, db: cpuSnapshot(postmaster).server };
}

async function post(apiRoot, cookie, path, body, key) {
  const res = await fetch(`${apiRoot}/${path}`, {
    method: 'POST',
    headers: {
      Cookie: cookie,
      'Content-Type': 'application/json',
      ...(key ? { 'Idempotency-Key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  const reply = await res.json();
  if (!res.ok || reply.success === false)
    throw new Error(`${path} answered ${res.status}: ${JSON.stringify(reply)}`);
  return reply;
}

/**
 * Server CPU per applied change (ms; Node and, on PostgreSQL, the cluster's processes):
 * `n` class adds sent alone as the legacy client sends them, then `n` sent as items of
 * batches of BATCH_ITEMS (the outbox's way).
 */
export async function cpuPerChange(server, cookie, clusterData, n) {
  const tag = Math.random().toString(36).slice(2, 8);
  const per = (before, after) => ({
    node: (after.node - before.node) / n,
    db: (after.db - before.db) / n,
  });
  let before = serverCpu(server.pid, clusterData);
  for (let i = 0; i < n; i++)
    await post(server.apiRoot, cookie, ADD_CLASS, { className: `Bench ${tag} ${i}` });
  const single = per(before, serverCpu(server.pid, clusterData));
  before = serverCpu(server.pid, clusterData);
  for (let b = 0; b < n / BATCH_ITEMS; b++) {
    const requests = Array.from({ length: BATCH_ITEMS }, (_, i) => ({
      method: 'POST',
      path: ADD_CLASS,
      key: `bench-${tag}-${b}-${i}`,
      json: { className: `Batch ${tag} ${b} ${i}` },
    }));
    await post(server.apiRoot, cookie, BATCH, { requests });
  }
  const batched = per(before, serverCpu(server.pid, clusterData));
  return { single, batched };
}

/** Every student again (new emails), in one INSERT … SELECT: as many rows as the seed wrote. */
async function copyStudents(query) {
  const columns = (
    await query(
      `SELECT attname AS name FROM pg_attribute
        WHERE attrelid = 'students'::regclass AND attnum > 0 AND NOT attisdropped
          AND attname NOT IN ('student_id', 'rev') ORDER BY attnum`,
    )
  ).map((r) => `"${r.name}"`);
  const list = columns.join(', ');
  const values = list.replace('"email"', `'bulk.' || "email"`);
  const [{ n }] = await query(
    `WITH added AS (INSERT INTO students (${list}) SELECT ${values} FROM students RETURNING 1)
     SELECT count(*)::int AS n FROM added`,
  );
  return n;
}

/** On PostgreSQL, beside the running server. */
export async function bulkInsertPostgres(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await copyStudents(async (sql) => (await client.query(sql)).rows);
  } finally {
    await client.end();
  }
}

/** On PGlite, in its folder while the server is stopped (it holds the folder when running). */
export async function bulkInsertPglite(dataDir) {
  const db = await PGlite.create({ dataDir: join(dataDir, 'pgdata'), extensions: { pg_trgm } });
  try {
    return await copyStudents(async (sql) => (await db.query(sql)).rows);
  } finally {
    await db.close();
  }
}
