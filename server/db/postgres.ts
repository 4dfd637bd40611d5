/** A real PostgreSQL server through a node-pg pool (DATABASE_URL). */
import pg from 'pg';
import { raceDeadline } from '../kit/race-deadline';
import { listenOnPostgres } from './postgres-listen';
import { type Database, INT8_OID, parseInt8, type Query } from './types';

/** How long the start waits for the database's first answer. */
const CONNECT_TIMEOUT_MS = 15_000;

async function firstConnection(pool: pg.Pool): Promise<pg.PoolClient> {
  const connecting = pool.connect();
  try {
    return await raceDeadline(connecting, CONNECT_TIMEOUT_MS, () => {
      throw Object.assign(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`), {
        code: 'DB_TIMEOUT',
      });
    });
  } catch (err) {
    // A connection that comes after the timeout goes straight back.
    connecting.then(
      (client) => client.release(),
      () => {},
    );
    throw err;
  }
}

/** `warn` hears of connections the pool lost while idle (the next query reconnects). */
export async function openPostgres(
  connectionString: string,
  warn: (message: string) => void = (m) => console.error(m),
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    // Per pool rather than pg.types.setTypeParser, which would change every pg user in the process.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', (err) => warn(`PostgreSQL pool error: ${err.message}`));
  // Fail at start, not at the first request, when the URL is wrong; and within a bound, since
  // a database behind a firewall that drops packets would leave the connection waiting.
  try {
    (await firstConnection(pool)).release();
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }

  const queryOn =
    (runner: pg.Pool | pg.PoolClient): Query =>
    async <T>(sql: string, params?: readonly unknown[]) => {
      // Without parameters node-pg uses the simple protocol, which accepts several statements.
      const result =
        params && params.length > 0 ? await runner.query(sql, [...params]) : await runner.query(sql);
      // A multi-statement call returns one result per statement.
      const last = Array.isArray(result) ? result.at(-1) : result;
      return (last?.rows ?? []) as T[];
    };

  return {
    query: queryOn(pool),
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(queryOn(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    transactionsAtOnce: pool.options.max,
    pool: () => ({
      size: pool.totalCount,
      inUse: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
    }),
    listen: (channel, heard) => listenOnPostgres(connectionString, channel, heard, warn),
  };
}
