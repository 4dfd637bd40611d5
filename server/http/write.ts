/**
 * Wraps every write request in ONE transaction, together with its Idempotency-Key handling:
 * the claim, the handler's writes and the stored reply commit together, and a 5xx (or a
 * thrown error, which Hono has already turned into a 500 by the time we look) rolls all of it
 * back, so there is never a partial write and never a stored failure that hides a retry.
 * 4xx replies are stored: they are final, and a replay must give the same answer.
 */
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '../../src/contract/wire';
import type { Database, Query } from '../db';
import type { AppEnv } from './env';
import { answerFromStore, claimKey, isValidKey, storeReply } from './idempotency';
import { fail, TEXT } from './reply';

/** Thrown inside the transaction to roll it back while keeping the reply Hono already has. */
class Rollback extends Error {}

export function writeTransaction(db: Database, options: { legacy: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Legacy mode behaves like the PHP server, which knows nothing of the header.
    const key = options.legacy ? undefined : c.req.header(IDEMPOTENCY_HEADER);
    if (key !== undefined && !isValidKey(key)) return fail(c, 400, TEXT.badKey);
    // The query string is left out: a retry of the same entry always targets the same path.
    const methodPath = `${c.req.method} ${c.req.path}`;

    let replay: Response | undefined;
    // An item of a batch runs in the batch's transaction, inside a savepoint the batch rolls
    // back when the item ends in a 5xx (server/http/batch.ts).
    const batch = c.env?.batch;
    const inTransaction = batch
      ? <T>(fn: (q: Query) => Promise<T>) => fn(batch.q)
      : <T>(fn: (q: Query) => Promise<T>) => db.tx(fn);
    try {
      await inTransaction(async (q) => {
        c.set('q', q);
        if (key !== undefined) {
          const stored = await claimKey(q, key, methodPath);
          if (stored) {
            const answer = answerFromStore(stored, methodPath);
            replay = c.json(
              answer.body as object,
              answer.status as ContentfulStatusCode,
              answer.replayed ? { [REPLAYED_HEADER]: 'true' } : {},
            );
            return;
          }
        }
        await next();
        if (c.res.status >= 500) throw new Rollback();
        if (key !== undefined) await storeReply(q, key, c.res.status, await c.res.clone().json());
      });
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
    }
    if (replay) return replay;
  };
}
