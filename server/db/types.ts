/**
 * The storage seam. Handlers see only `Query`: a function that runs one SQL statement with
 * positional parameters ($1, $2, …) and returns the rows. The same SQL runs on embedded PGlite
 * and on a real PostgreSQL, so nothing above this folder knows which one it talks to.
 *
 * A call without parameters may hold several statements separated by semicolons (the simple
 * query protocol, as node-pg does natively); migrations rely on that. Its rows are those of
 * the last statement.
 *
 * int8 values (bigint columns, count(*), sequence values) come back as JS numbers on both
 * engines: our counters stay far below 2^53, and one representation keeps replies uniform.
 */
export type Query = <T = Record<string, unknown>>(sql: string, params?: readonly unknown[]) => Promise<T[]>;

/**
 * A statement and its parameters, numbered from the `$n` its builder was given: parts that
 * callers join into one statement (data-modifying CTEs) to save a round trip each.
 */
export interface Statement {
  sql: string;
  params: unknown[];
}

export interface Database {
  /** Runs a statement outside any explicit transaction (autocommit). */
  query: Query;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * Inside, use only the `q` it receives: on PGlite (one connection) `query` would wait for
   * the transaction to end and so never return.
   */
  tx<T>(fn: (q: Query) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * How many transactions may run at once: PGlite runs one at a time (one connection),
   * PostgreSQL one per pooled connection. Absent: one.
   */
  transactionsAtOnce?: number;
  /**
   * The embedded database only (backups, server/backup): a copy of its whole data folder as a
   * tar, taken between transactions, and `alongside` run in the same moment, before any other
   * transaction may start.
   */
  snapshot?(alongside: () => Promise<void>): Promise<Blob>;
  /** The connections as they are now (GET /metrics, server/ops/metrics.ts). */
  pool?(): PoolStats;
  /**
   * Calls `heard` for notifications on `channel` (LISTEN), each after the transaction that sent
   * it committed, and once more whenever the listening connection was lost and made again (what
   * was sent meanwhile is not known). Resolves, once listening, to a function that stops.
   */
  listen(channel: string, heard: () => void): Promise<() => Promise<void>>;
}

export interface PoolStats {
  /** Connections open. */
  size: number;
  /** Connections running a query or transaction. */
  inUse: number;
  /** Queries and transactions waiting for a connection. */
  waiting: number;
}

/** PostgreSQL's type oid of int8 (bigint). */
export const INT8_OID = 20;

/** Parses an int8 as a JS number (see the module comment). */
export const parseInt8 = (text: string): number => Number(text);
