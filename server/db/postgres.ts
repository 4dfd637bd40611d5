/** A real PostgreSQL server through a node-pg pool (DATABASE_URL). */
import pg from 'pg';
import { type Database, INT8_OID, parseInt8, type Query } from './types';

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    // Per pool rather than pg.types.setTypeParser, which would change every pg user in the process.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', (err) => console.error('PostgreSQL pool error:', err.message));
  // Fail at start, not at the first request, when the URL is wrong.
  (await pool.connect()).release();

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
  };
}
