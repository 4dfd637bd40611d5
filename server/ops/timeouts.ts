/**
 * How long a client may take to send its request (REQUEST_TIMEOUT_SECONDS), so that one that
 * sends a byte at a time holds a socket for a bounded time and never anything else (Node
 * serves other requests meanwhile: a slow client costs a socket, not the event loop).
 *
 * - Headers: Node's own headersTimeout, the request timeout. Node looks for expired requests
 *   every `connectionsCheckingInterval` (5 s at most here, Node's default is 30 s), so a slow
 *   client is cut within the timeout plus 5 s.
 * - A body: within the request timeout of its headers, cut by the timer below (the
 *   connection is closed: nobody is left to read a reply). A resumable upload's chunk (PATCH
 *   under the resumable uploads' path) is exempt: it may carry 5 MB over a school's slow
 *   line, and has its own, longer allowance (UPLOAD_CHUNK_TIMEOUT_SECONDS), which is Node's
 *   requestTimeout for the whole request.
 *
 * The handler that was reading the cut body then fails; onError (app/start.ts) asks `wasCut` and
 * logs the cut once, without a stack.
 */
import type { IncomingMessage, ServerOptions } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { RESUMABLE_PATH } from '../../src/contract/resumable';
import { requestLog } from './context';

export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;
export const DEFAULT_UPLOAD_CHUNK_TIMEOUT_SECONDS = 600;

export interface RequestTimeouts {
  /** Headers, and a body other than an upload chunk (REQUEST_TIMEOUT_SECONDS). */
  requestSeconds: number;
  /** A resumable upload's chunk, headers included (UPLOAD_CHUNK_TIMEOUT_SECONDS). */
  uploadChunkSeconds: number;
}

export const DEFAULT_TIMEOUTS: RequestTimeouts = {
  requestSeconds: DEFAULT_REQUEST_TIMEOUT_SECONDS,
  uploadChunkSeconds: DEFAULT_UPLOAD_CHUNK_TIMEOUT_SECONDS,
};

/** Node's settings for the HTTP server (given at its creation). */
export function nodeServerTimeouts(t: RequestTimeouts): ServerOptions {
  const requestMs = t.requestSeconds * 1000;
  return {
    headersTimeout: requestMs,
    // Node refuses a requestTimeout below headersTimeout.
    requestTimeout: Math.max(t.uploadChunkSeconds * 1000, requestMs),
    connectionsCheckingInterval: Math.min(5000, Math.max(250, requestMs / 4)),
  };
}

const cut = new WeakSet<IncomingMessage>();

/** Whether this request's connection was closed because its body came too slowly. */
export const wasCut = (c: Context) => {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && cut.has(incoming);
};

export function limitBodyTime(t: RequestTimeouts, apiPrefix: string): MiddlewareHandler {
  const chunks = `${apiPrefix}/${RESUMABLE_PATH}/`;
  return async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const hasBody =
      c.req.header('transfer-encoding') !== undefined || Number(c.req.header('content-length') ?? 0) > 0;
    const isChunk = c.req.method === 'PATCH' && c.req.path.startsWith(chunks);
    if (!incoming || incoming.complete || !hasBody || isChunk) return next();
    const timer = setTimeout(() => {
      if (incoming.complete) return;
      cut.add(incoming);
      requestLog().warn(
        { method: c.req.method, path: c.req.path },
        `request body not received within ${t.requestSeconds} s: connection closed`,
      );
      incoming.socket.destroy();
    }, t.requestSeconds * 1000);
    timer.unref();
    incoming.once('end', () => clearTimeout(timer));
    incoming.once('close', () => clearTimeout(timer));
    return next();
  };
}
