/** The failure envelope and the server's own texts (the entities' texts come from messages()). */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { WRONG_PASSWORD } from '../../src/contract/accounts/sign-in-limits';
import { KEY_REUSED } from '../../src/contract/idempotency';

export const TEXT = {
  loginOk: 'Login successful',
  loginFailed: WRONG_PASSWORD,
  loginMissing: 'Username and password are required',
  loggedOut: 'Logged out',
  signIn: 'Please sign in',
  malformedJson: 'Malformed JSON body',
  malformedBody: 'Malformed request body',
  unsupportedType: 'Send the request body as JSON (Content-Type: application/json)',
  jsonOrMultipart: 'Send the request body as JSON or multipart/form-data',
  tooNested: 'The JSON body is nested too deeply or holds too many items',
  nul: 'The request must not contain NUL characters',
  queryTooLong: 'The query string is too long',
  malformedQuery: 'Malformed query string',
  headersTooLarge: 'The request line or its headers are too large',
  malformedRequest: 'Malformed HTTP request',
  requestTooSlow: 'The request did not arrive in time',
  crossSite: 'Requests from other sites are not accepted',
  tooLargeAnonymous: 'Sign in first: a request without a session may only carry a small body',
  notAnObject: 'Request body must be a JSON object',
  badKey: 'Invalid Idempotency-Key',
  keyReused: KEY_REUSED,
  badListParams: 'page, limit and since must be non-negative whole numbers',
  notFound: 'Not found',
  badBatch: 'Malformed batch',
  notBatchable: 'A batch may only carry the get, add, update, delete and action requests of entities',
  internal: 'Internal server error',
  unknownRequest: 'Unknown request: this path does not answer these parameters',
  forbidden: 'Your role does not allow this change',
} as const;

/** Every failure is `{ success: false, message }` with a meaningful HTTP status. */
export function fail(c: Context, status: ContentfulStatusCode, message: string) {
  return c.json({ success: false, message }, status);
}
