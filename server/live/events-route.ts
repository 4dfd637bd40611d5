/**
 * GET {apiRoot}/sync/events: the live stream (src/contract/wire.ts, LIVE_EVENTS_PATH) through
 * Hono's Server-Sent Events helper. A signed-in device keeps one open; each commit anywhere
 * sends the change sequence it reached (`id` and `data`), nothing else. The first event, at
 * once, is the sequence as it is: a device compares it with the Last-Event-ID it sent back and
 * pulls what it missed, and knows the stream gets through (a buffering proxy would hold it).
 *
 * A comment every 25 s keeps proxies and balancers from closing a quiet connection, and is
 * when the stream asks whether its session still holds (without counting as its use): a
 * session signed out, expired or revoked ends its streams within that time, and a device
 * signing out closes its own at once. The stream holds no database connection in between.
 * A few streams per session at most (tabs of one browser), so a loop cannot pile them up.
 * A shutdown ends every stream at once (`endAll`): devices reconnect, to another process
 * behind a balancer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import { LIVE_EVENTS_PATH, LIVE_KEEP_ALIVE_MS, SESSION_COOKIE } from '../../src/contract/wire';
import { sessionHolds } from '../auth/sessions';
import type { Database } from '../db';
import type { AppEnv } from '../http/env';
import { fail } from '../http/reply';
import type { AppMetrics } from '../ops/metrics';
import type { Readiness } from '../ops/readiness';
import type { ChangeFeed } from './change-feed';

export const STREAMS_PER_SESSION = 4;
/** How soon a device reconnects after its stream was cut (EventSource's `retry`). */
const RECONNECT_MS = 2000;

export const LIVE_TEXT = {
  tooMany: `At most ${STREAMS_PER_SESSION} live connections per session: close another tab`,
  closing: 'This server is shutting down: connect again',
};

export interface LiveOptions {
  db: Database;
  feed: ChangeFeed;
  apiPrefix: string;
  readiness: Readiness;
  metrics: AppMetrics;
  /** Tests shorten it. */
  keepAliveMs?: number;
}

export interface LiveEvents {
  /** Ends every open stream (a shutdown). */
  endAll(): void;
}

export function registerLiveEvents(app: Hono<AppEnv>, options: LiveOptions): LiveEvents {
  const { db, feed, metrics } = options;
  const keepAliveMs = options.keepAliveMs ?? LIVE_KEEP_ALIVE_MS;
  const perSession = new Map<string, number>();
  /** How to end each open stream. */
  const open = new Set<() => void>();

  const serve = async (stream: SSEStreamingApi, token: string) => {
    const ended = new AbortController();
    const end = () => ended.abort();
    open.add(end);
    stream.onAbort(end);
    // The feed and the first read can both report a value: a device hears each one once, in order.
    let lastSent = -1;
    const send = async (seq: number) => {
      if (seq <= lastSent) return;
      lastSent = seq;
      await stream
        .writeSSE({ id: String(seq), data: String(seq), retry: RECONNECT_MS })
        .then(() => metrics.pokesSent.inc(), end);
    };
    const unsubscribe = feed.subscribe((seq) => void send(seq));
    try {
      await send(await feed.current());
      while (!ended.signal.aborted) {
        // Cut short when the stream ends.
        await sleep(keepAliveMs, undefined, { signal: ended.signal }).catch(() => {});
        if (ended.signal.aborted || !(await sessionHolds(db.query, token))) break;
        await stream.write(': still here\n\n');
      }
    } finally {
      unsubscribe();
      open.delete(end);
    }
  };

  app.get(`${options.apiPrefix}/${LIVE_EVENTS_PATH}`, (c) => {
    if (options.readiness.shuttingDown) return fail(c, 503, LIVE_TEXT.closing);
    // The session check before this route has passed: the cookie is there.
    const token = getCookie(c, SESSION_COOKIE) ?? '';
    const count = perSession.get(token) ?? 0;
    if (count >= STREAMS_PER_SESSION) return fail(c, 429, LIVE_TEXT.tooMany);
    perSession.set(token, count + 1);
    metrics.liveStreams.inc();
    return streamSSE(c, async (stream) => {
      try {
        await serve(stream, token);
      } finally {
        metrics.liveStreams.dec();
        const left = (perSession.get(token) ?? 1) - 1;
        if (left > 0) perSession.set(token, left);
        else perSession.delete(token);
      }
    });
  });

  return {
    endAll() {
      for (const end of [...open]) end();
    },
  };
}
