/**
 * The largest request body accepted. The largest legitimate one is an Add Chapter with its
 * 10 MB media plus the text fields; anything beyond the limit is refused before it is read
 * into memory (with a Content-Length) or as soon as it passes the limit (streamed).
 *
 * A body whose Content-Length is over the limit is refused from its headers alone, without
 * touching the body stream: the unread body is then discarded by Node and the connection
 * stays usable. (Hono's bodyLimit opens the body stream first; the adapter's cleanup could
 * then never finish draining it and cut the keep-alive connection half a second later, with
 * whatever request the client had sent on it meanwhile.) A streamed (chunked) body is counted
 * as it arrives; one that passes the limit gets its refusal with `Connection: close`, since
 * the rest of it will not be read.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { fail, TEXT } from './reply';

export const MAX_BODY_BYTES = 12 * 1024 * 1024;

/** Sign-in and sign-out, the only endpoints without a session: a username and a password. */
export const MAX_ANONYMOUS_BODY_BYTES = 8 * 1024;

function limit(maxSize: number, message: string): MiddlewareHandler {
  const refuse = (c: Context) => fail(c, 413, message);
  const streamed = bodyLimit({
    maxSize,
    onError: (c) => {
      c.header('Connection', 'close');
      return refuse(c);
    },
  });
  return async (c, next) => {
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      const bytes = Number(length);
      if (!Number.isSafeInteger(bytes) || bytes < 0) return fail(c, 400, TEXT.malformedRequest);
      return bytes > maxSize ? refuse(c) : next();
    }
    return streamed(c, next);
  };
}

/** Registered after the session check: a request without a session never gets this far. */
export const limitBody = limit(
  MAX_BODY_BYTES,
  `Request body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MB`,
);

/** For the endpoints reachable without a session. */
export const limitAnonymousBody = limit(MAX_ANONYMOUS_BODY_BYTES, TEXT.tooLargeAnonymous);
