/**
 * Statements with parameters inside a PGlite transaction, run as named prepared statements.
 *
 * PGlite's own `query` parses and plans its statement anew each time, in six calls into the
 * wasm engine (parse, describe, bind, describe, execute, sync), each answered and read in
 * JavaScript. Writes run the same few statements over and over (a row looked up by key, an
 * insert, the stored replies with the audit entries), so each is parsed and described once and
 * afterwards bound and executed in one call: about a third of a single write's server CPU
 * (bench/write-cost.mjs). Only transactions use it: reads keep a plan made for their values
 * (a search's pattern), which a prepared statement's generic plan would not be.
 *
 * Prepared statements outlive the transaction that made them (they belong to the session, and
 * PGlite has one). Any statement that may change the schema (`schemaMayChange`: migrations,
 * and tests that add a column) makes every statement be prepared again, since one that reads
 * or returns a whole row fails once its table changed shape; the old ones are left to the
 * session (a few kilobytes each, and schemas change at start). DDL takes no parameters and
 * PGlite has no other connection, so every schema change passes there. Past MAX_KEPT
 * statements, the least recently used is closed. As in PGlite's own transactions, nothing is
 * synced to the file system until the commit.
 */
import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import type { Query } from './types';

const MAX_KEPT = 500;
const IN_TRANSACTION = { syncToFs: false };
const DDL = /\b(alter|create|drop)\b/i;

interface Prepared {
  name: string;
  paramTypes: number[];
}

export function preparedStatements(db: PGlite) {
  const kept = new Map<string, Prepared>();
  let made = 0;
  const { serialize } = protocol;

  /** Closes the least recently used statement. */
  const closeOldest = async () => {
    const [sql, { name }] = kept.entries().next().value as [string, Prepared];
    kept.delete(sql);
    await db.execProtocol(
      Buffer.concat([serialize.close({ type: 'S', name }), serialize.sync()]),
      IN_TRANSACTION,
    );
  };

  const prepare = async (sql: string): Promise<Prepared> => {
    const known = kept.get(sql);
    if (known) {
      // Most recently used last: the first is the one to close when too many are kept.
      kept.delete(sql);
      kept.set(sql, known);
      return known;
    }
    const name = `w${++made}`;
    const described = await db.execProtocol(
      Buffer.concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      IN_TRANSACTION,
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(described.messages) };
    if (kept.size >= MAX_KEPT) await closeOldest();
    kept.set(sql, statement);
    return statement;
  };

  const run = async <T>(sql: string, params: readonly unknown[]): Promise<T[]> => {
    const { name, paramTypes } = await prepare(sql);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[paramTypes[i]];
      return serializer ? serializer(value) : String(value);
    });
    const ran = await db.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      IN_TRANSACTION,
    );
    return parse.parseResults(ran.messages, db.parsers)[0].rows as T[];
  };

  /** A Query for the transaction in progress: PGlite's query lock held for each statement. */
  const inTransaction: Query = <T>(sql: string, params?: readonly unknown[]) =>
    db._runExclusiveQuery(() => run<T>(sql, params ?? []));
  /** Called with every statement run without parameters: DDL makes every statement be prepared again. */
  const schemaMayChange = (sql: string) => {
    if (DDL.test(sql)) kept.clear();
  };
  return { inTransaction, schemaMayChange };
}
