/**
 * The largest request body accepted. The largest legitimate one is an Add Chapter with its
 * 10 MB media plus the text fields; anything beyond the limit is refused before it is read
 * into memory (with a Content-Length) or as soon as it passes the limit (streamed).
 */
import { bodyLimit } from 'hono/body-limit';
import { fail, TEXT } from './reply';

export const MAX_BODY_BYTES = 12 * 1024 * 1024;

/** Sign-in and sign-out, the only endpoints without a session: a username and a password. */
export const MAX_ANONYMOUS_BODY_BYTES = 8 * 1024;

/** Registered after the session check: a request without a session never gets this far. */
export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: (c) => fail(c, 413, `Request body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MB`),
});

/** For the endpoints reachable without a session. */
export const limitAnonymousBody = bodyLimit({
  maxSize: MAX_ANONYMOUS_BODY_BYTES,
  onError: (c) => fail(c, 413, TEXT.tooLargeAnonymous),
});
