/**
 * An ApiClient that gathers the requests replay makes at about the same moment into batches
 * (src/contract/batch.ts) and hands every caller its own item's outcome, so replay's logic is
 * the same whether a request travelled alone or in a batch. Requests that cannot be batched
 * (lists, files) and every request to a server without the extension go alone, at most
 * `maxAlone` at a time (what a browser allows per host anyway).
 *
 * Exactly once is unaffected: every item carries its entry's Idempotency-Key, and a batch
 * without a reply leaves all its items without one, so each is sent again under its key.
 */
import * as v from 'valibot';
import {
  BATCH_MAX_ITEMS,
  BATCH_PATH,
  type BatchItem,
  batchableRequests,
  batchReplySchema,
} from '../contract/batch';
import { entities } from '../contract/entities';
import type { ApiClient, ApiOutcome, RequestOptions } from './api';
import { classify } from './classify';

export interface BatchingOptions {
  maxItems?: number;
  /** Batches in flight at once: one being applied by the server, the next one travelling. */
  maxBatches?: number;
  maxAlone?: number;
}

/**
 * Whether the server behind an API client has the extension; unknown until its first answer.
 * Kept per client, which the window and the worker each create once, so it lasts while they do.
 */
const supportByClient = new WeakMap<ApiClient, boolean>();

const BATCHABLE = batchableRequests(entities);

interface Waiting {
  item: BatchItem;
  path: string;
  options: RequestOptions;
  done: (outcome: ApiOutcome) => void;
}

/** The batch item for a request, or null when it must travel alone. */
function toItem(path: string, options: RequestOptions): BatchItem | null {
  if (!BATCHABLE.has(`${options.method} ${path}`)) return null;
  const item: BatchItem = { method: options.method, path };
  if (options.query) {
    const query = Object.entries(options.query).filter(([, v]) => v !== undefined) as [
      string,
      string | number,
    ][];
    item.query = Object.fromEntries(query);
  }
  if (options.idempotencyKey) item.key = options.idempotencyKey;
  if (options.json !== undefined) item.json = options.json as Record<string, unknown>;
  if (options.form) {
    const pairs: [string, string][] = [];
    for (const [name, value] of options.form.entries()) {
      if (typeof value !== 'string') return null; // a file: multipart, alone
      pairs.push([name, value]);
    }
    item.form = pairs;
  }
  return item;
}

/** Runs `task`s at most `limit` at a time. */
function limiter(limit: number) {
  let running = 0;
  const queue: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((go) => queue.push(go));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      queue.shift()?.();
    }
  };
}

/** Whether the batch as a whole is to be retried or waits for a sign-in (rule 4, as for one request). */
const retryable = (o: ApiOutcome) => ['retry', 'auth'].includes(classify(o, 'batch').kind);

export function withBatching(api: ApiClient, options: BatchingOptions = {}): ApiClient {
  const maxItems = options.maxItems ?? BATCH_MAX_ITEMS;
  const alone = limiter(options.maxAlone ?? 6);
  const batches = limiter(options.maxBatches ?? 2);
  let waiting: Waiting[] = [];
  let scheduled = false;

  const sendAlone = (path: string, opts: RequestOptions) => alone(() => api.request(path, opts));

  async function sendBatch(group: Waiting[]): Promise<void> {
    const outcome = await api.request(BATCH_PATH, {
      method: 'POST',
      json: { requests: group.map((w) => w.item) },
    });
    if (retryable(outcome)) {
      // No item was applied, or the server keeps their replies under their keys: every item
      // gets the batch's outcome (401 pauses replay, the rest retry).
      for (const w of group) w.done(outcome);
      return;
    }
    const checked =
      outcome.kind === 'reply' && outcome.status === 200 ? v.safeParse(batchReplySchema, outcome.body) : null;
    const parsed = checked?.success ? checked.output : null;
    if (!parsed || parsed.replies.length !== group.length) {
      // Not a batch reply: nothing was applied. A 404 (or 405/501) is a server without the
      // extension, remembered; anything else (a captive portal's page) only sends these alone.
      if (outcome.kind !== 'unreachable' && [404, 405, 501].includes(outcome.status))
        supportByClient.set(api, false);
      await Promise.all(group.map(async (w) => w.done(await sendAlone(w.path, w.options))));
      return;
    }
    supportByClient.set(api, true);
    parsed.replies.forEach((reply, i) => {
      const body = reply.body;
      group[i].done(
        typeof body === 'object' && body !== null && !Array.isArray(body)
          ? { kind: 'reply', status: reply.status, body: body as never, replayed: reply.replayed }
          : { kind: 'not-json', status: reply.status },
      );
    });
  }

  function flush(): void {
    scheduled = false;
    while (waiting.length > 0) {
      const group = waiting.slice(0, maxItems);
      waiting = waiting.slice(maxItems);
      void batches(() => sendBatch(group)).catch((error) => {
        for (const w of group) w.done({ kind: 'unreachable', error: String(error) });
      });
    }
  }

  return {
    root: api.root,
    fetch: api.fetch,
    request(path, opts) {
      const item = supportByClient.get(api) === false ? null : toItem(path, opts);
      if (!item) return sendAlone(path, opts);
      return new Promise<ApiOutcome>((done) => {
        waiting.push({ item, path, options: opts, done });
        // Requests made in the same turn (replay starts a round's entries together) share
        // a batch; a full batch leaves at once.
        if (waiting.length >= maxItems) flush();
        else if (!scheduled) {
          scheduled = true;
          setTimeout(flush, 0);
        }
      });
    },
  };
}
