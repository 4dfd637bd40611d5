/**
 * The largest request body accepted. The largest legitimate one is an Add Chapter with its
 * 10 MB media plus the text fields; anything beyond the limit is refused before it is read
 * into memory (with a Content-Length) or as soon as it passes the limit (streamed).
 */
import { bodyLimit } from 'hono/body-limit';
import { fail } from './reply';

export const MAX_BODY_BYTES = 12 * 1024 * 1024;

export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: (c) => fail(c, 413, `Request body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MB`),
});
