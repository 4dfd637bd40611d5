/**
 * The server's metrics in Prometheus' text format (prom-client), scraped at GET /metrics
 * (endpoints.ts) from each process: a balancer in front would mix the processes' counters.
 *
 * Each server has its own registry (tests run several servers in one process, and the same
 * metric name may be registered once per registry); the default process metrics (CPU, memory,
 * event-loop lag, GC, handles) are registered once per process and merged in at each scrape.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/types';

export interface AppMetrics {
  readonly registry: Registry;
  /** Requests by route pattern (Hono's, e.g. `/api/Classes/addclasses.php`), method and status. */
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly duration: Histogram<'route' | 'method' | 'status'>;
  /** Requests received and not yet answered (a shutdown waits for them). */
  readonly inFlight: Gauge;
  /** Items per batch request (the outbox's batches, src/contract/batch.ts). */
  readonly batchItems: Histogram;
  /** Writes answered from a stored reply (a repeat of an Idempotency-Key). */
  readonly replays: Counter;
  /** Sign-ins refused: wrong credentials, throttled, or malformed. */
  readonly refusedSignIns: Counter<'reason'>;
  /** Bytes of files received: resumable chunks and multipart requests that carried files. */
  readonly uploadBytes: Counter<'kind'>;
  /** Live streams open (server/live). */
  readonly liveStreams: Gauge;
  /** Events sent on live streams: one per stream per commit (or burst of commits). */
  readonly pokesSent: Counter;
}

let processRegistry: Registry | undefined;

/** The default metrics, collected once per process whatever the number of servers in it. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** `pool` reports the database connections (db/types.ts); read at each scrape. */
export function createMetrics(pool: () => PoolStats): AppMetrics {
  processMetrics();
  const registry = new Registry();
  const labels = ['route', 'method', 'status'] as const;
  const gauge = (name: string, help: string, read: (s: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(pool()));
      },
    });
  gauge('db_pool_size', 'Database connections open (PGlite: its one connection)', (s) => s.size);
  gauge('db_pool_in_use', 'Database connections running a query or transaction', (s) => s.inUse);
  gauge('db_pool_waiting', 'Queries and transactions waiting for a database connection', (s) => s.waiting);
  return {
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: labels,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of its reply, by route pattern, method and status',
      labelNames: labels,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    inFlight: new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests received whose reply has not ended yet',
      registers: [registry],
    }),
    batchItems: new Histogram({
      name: 'outbox_batch_items',
      help: 'Items per batch request',
      buckets: [1, 2, 5, 10, 20, 50, 100],
      registers: [registry],
    }),
    replays: new Counter({
      name: 'idempotent_replays_total',
      help: 'Writes answered from the reply stored under their Idempotency-Key',
      registers: [registry],
    }),
    refusedSignIns: new Counter({
      name: 'signins_refused_total',
      help: 'Sign-ins refused, by reason (credentials, throttled, malformed)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    uploadBytes: new Counter({
      name: 'upload_bytes_received_total',
      help: 'Bytes of files received, by kind (resumable chunks, multipart requests)',
      labelNames: ['kind'],
      registers: [registry],
    }),
    liveStreams: new Gauge({
      name: 'live_streams_open',
      help: 'Live streams (Server-Sent Events) open on this process',
      registers: [registry],
    }),
    pokesSent: new Counter({
      name: 'live_pokes_sent_total',
      help: 'Events sent on live streams, one per stream per commit or burst of commits',
      registers: [registry],
    }),
  };
}

/** The text a scrape gets: this server's metrics and the process's. */
export async function scrape(metrics: AppMetrics): Promise<{ contentType: string; text: string }> {
  const merged = Registry.merge([processMetrics(), metrics.registry]);
  return { contentType: merged.contentType, text: await merged.metrics() };
}
