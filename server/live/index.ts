/**
 * The live channel of one server process: the change feed (change-feed.ts) and the stream that
 * tells signed-in devices of each commit (events-route.ts). Opened at start, registered after
 * the session check, ended at the start of a shutdown.
 */
import type { Hono } from 'hono';
import type { Database } from '../db';
import type { AppEnv } from '../http/env';
import type { AppMetrics } from '../ops/metrics';
import type { Readiness } from '../ops/readiness';
import { openChangeFeed } from './change-feed';
import { type LiveEvents, registerLiveEvents } from './events-route';

export interface Live {
  register(app: Hono<AppEnv>, apiPrefix: string): void;
  /** Ends every open stream: devices reconnect (to another process behind a balancer). */
  endStreams(): void;
  close(): Promise<void>;
}

export async function openLive(
  db: Database,
  ops: { readiness: Readiness; metrics: AppMetrics },
  options: { onError: (err: unknown) => void; keepAliveMs?: number },
): Promise<Live> {
  const feed = await openChangeFeed(db, options.onError);
  let events: LiveEvents | undefined;
  return {
    register(app, apiPrefix) {
      events = registerLiveEvents(app, { db, feed, apiPrefix, ...ops, keepAliveMs: options.keepAliveMs });
    },
    endStreams: () => events?.endAll(),
    close: () => feed.close(),
  };
}
