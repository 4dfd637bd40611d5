/**
 * Graceful shutdown (SIGTERM, SIGINT; commands/serve.ts), in the order a balancer needs:
 *
 * 1. /readyz answers 503 at once (readiness.ts), while every other request is still served
 *    for `delayMs` (SHUTDOWN_DELAY_MS: the balancer's check interval, so that it has seen
 *    the 503 and sends nothing new before the port closes). Replies say `Connection: close`
 *    from now on, so clients and the balancer move their keep-alive connections elsewhere.
 * 2. The port closes: no new connection is accepted. Idle keep-alive connections are closed;
 *    requests in flight run to their end (a write commits and is answered, a resumable
 *    upload's chunk is received whole), and each connection closes after its reply.
 * 3. When the last request is answered, or at the deadline (SHUTDOWN_TIMEOUT_SECONDS from the
 *    signal), whatever is still open is cut, and the database pool closes.
 *
 * A request cut at the deadline gets no reply at all, never an error for a write that
 * committed: its transaction either committed (the client's retry under the same
 * Idempotency-Key gets the stored reply) or rolls back when its connection goes.
 */
import type { Server } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { raceDeadline } from '../kit/race-deadline';
import type { Readiness } from './readiness';

export interface ShutdownTiming {
  /** Still serving (but not ready) this long after the signal. */
  delayMs: number;
  /** Everything still open is cut this long after the signal. */
  timeoutMs: number;
}

export interface ShutdownOutcome {
  /** Requests still running at the deadline, whose connections were cut. */
  cut: number;
}

/** Counts the requests in flight on a server (a request is done when its reply closes). */
export function trackRequests(server: Server): () => number {
  let inFlight = 0;
  server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
      // While closing, a connection whose reply just ended is idle: close it now.
      if (!server.listening) server.closeIdleConnections();
    });
  });
  return () => inFlight;
}

/** During a shutdown every reply closes its connection (step 1 above). */
export function closeConnectionsWhenDraining(readiness: Readiness): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (readiness.shuttingDown) c.res.headers.set('Connection', 'close');
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Whether `work` settled within `ms` (its timer does not outlive it). */
const within = (work: Promise<unknown>, ms: number): Promise<boolean> =>
  raceDeadline(
    work.then(() => true),
    ms,
    () => false,
  );

/**
 * Steps 1 to 3 for the HTTP server; `endStreams` runs with step 1, `beforeClose` before the
 * server closes, `closeDatabase` ends the pool (after the upkeep timers and a run of theirs in
 * flight). Resolves when all is closed.
 */
export async function shutDown(
  parts: {
    server: Server;
    readiness: Readiness;
    inFlight: () => number;
    /** Long-lived requests (live streams) end here, at once, so that they do not hold the close. */
    endStreams?: () => void;
    beforeClose: () => void | Promise<void>;
    closeDatabase: () => Promise<void>;
  },
  timing: ShutdownTiming,
): Promise<ShutdownOutcome> {
  const deadline = Date.now() + timing.timeoutMs;
  parts.readiness.beginShutdown();
  parts.endStreams?.();
  if (timing.delayMs > 0) await sleep(Math.min(timing.delayMs, timing.timeoutMs));
  await parts.beforeClose();
  const closed = new Promise<void>((resolve) => parts.server.close(() => resolve()));
  parts.server.closeIdleConnections();
  const finished = await within(closed, deadline - Date.now());
  let cut = 0;
  if (!finished) {
    cut = parts.inFlight();
    parts.server.closeAllConnections();
    await closed;
  }
  // A handler cut mid-transaction may still hold a connection, which the pool's end waits
  // for; commands/serve.ts exits at its own deadline anyway (PostgreSQL rolls back what it held).
  await parts.closeDatabase();
  return { cut };
}
