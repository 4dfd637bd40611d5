/**
 * How replay's requests travel. A round hands all its requests over at once (`sendAll`) and
 * gets every request's own outcome back, in order, whether it travelled alone or in a batch
 * (src/contract/batch.ts): against our server, requests a batch may carry go together, up to
 * `maxItems` per batch and `maxBatches` batches in flight; files, lists and everything sent to
 * a server without the extension go alone, at most `maxAlone` at a time (what a browser allows
 * per host anyway). Nothing here waits for a timer: a batch leaves as soon as a slot is free,
 * and until then it takes in the items of later calls (other rounds) while it has room, so that
 * rounds that come back small (a few changes freed by a reply) do not each pay a request.
 *
 * Exactly once is unaffected: every item carries its entry's Idempotency-Key, and a batch
 * without a reply leaves all its items without one, so each is sent again under its key.
 */
import pLimit from 'p-limit';
import * as v from 'valibot';
import {
  BATCH_MAX_BYTES,
  BATCH_MAX_ITEMS,
  BATCH_PATH,
  type BatchItem,
  batchableRequests,
  batchesInFlight,
  batchReplySchema,
} from '../contract/batch';
import { entities } from '../contract/entities';
import type { WireRequest } from '../contract/wire-request';
import type { ApiClient, ApiOutcome } from './api/api-client';
import { carriesFile, requestOptions } from './api/encode-request';
import { auditHeaders } from './audit/audit-headers';
import { classify } from './classify';

export interface Outgoing {
  request: WireRequest;
  /** The entry's Idempotency-Key (writes). */
  key?: string;
  /** When the entry was made (epoch ms), for the server's audit trail. */
  madeAt?: number;
}

export interface Transport {
  /** Sends every request and gives each its own outcome, in the order given. */
  sendAll(items: readonly Outgoing[]): Promise<ApiOutcome[]>;
}

export interface TransportOptions {
  maxItems?: number;
  /** JSON bytes per batch (the server limits a JSON body's size). */
  maxBytes?: number;
  /**
   * Batches in flight at once. By default as many as the server applies at once, as its last
   * batch reply said, plus one waiting there, so that the server never idles while the device
   * turns a reply around (src/contract/batch.ts). More would only queue at the server and add
   * their wait to each request's time, which the client's timeout counts; replay prepares its
   * next rounds meanwhile. Given: that many, whatever the server says.
   */
  maxBatches?: number;
  maxAlone?: number;
  /** This device's id for the server's audit trail (db/audit/device-id.ts), sent with every request. */
  device?: string;
}

/**
 * Whether the server behind an API client has the extension; unknown until its first answer.
 * Kept per client, which the window and the worker each create once, so it lasts while they do.
 */
const supportByClient = new WeakMap<ApiClient, boolean>();
/** Batches to keep in flight to the server behind an API client, as its last batch reply said. */
const inFlightByClient = new WeakMap<ApiClient, number>();

const BATCHABLE = batchableRequests(entities);
const utf8 = new TextEncoder();

/** The batch item for a request, or null when it must travel alone. */
function toItem({ request, key, madeAt }: Outgoing): BatchItem | null {
  if (!BATCHABLE.match(request.method, request.path, request.query) || carriesFile(request)) return null;
  const item: BatchItem = { method: request.method, path: request.path };
  if (Object.keys(request.query).length > 0) item.query = { ...request.query };
  if (key) item.key = key;
  if (madeAt !== undefined) item.madeAt = new Date(madeAt).toISOString();
  if (request.method === 'POST') {
    const body = request.body ?? {};
    if (request.encoding === 'multipart')
      item.form = Object.entries(body).map(([k, val]) => [k, String(val)]);
    else item.json = body as Record<string, unknown>;
  }
  return item;
}

/** An item waiting in a batch. */
interface Queued {
  outgoing: Outgoing;
  item: BatchItem;
  bytes: number;
}

/** A batch: its items (more join while it waits for a slot) and, once answered, each one's outcome. */
interface OpenBatch {
  group: Queued[];
  bytes: number;
  outcomes: Promise<ApiOutcome[]>;
}

/** Whether the batch as a whole is to be retried or waits for a sign-in (rule 4, as for one request). */
const retryable = (o: ApiOutcome) => ['retry', 'auth'].includes(classify(o, 'batch').kind);

export function createTransport(api: ApiClient, options: TransportOptions = {}): Transport {
  const maxItems = options.maxItems ?? BATCH_MAX_ITEMS;
  const maxBytes = options.maxBytes ?? BATCH_MAX_BYTES;
  const alone = pLimit(options.maxAlone ?? 6);
  const batches = pLimit(options.maxBatches ?? inFlightByClient.get(api) ?? batchesInFlight(undefined));

  const sendAlone = ({ request, key, madeAt }: Outgoing) =>
    alone(() =>
      api.request(request.path, {
        ...requestOptions(request, key),
        headers: auditHeaders(madeAt, options.device),
      }),
    );

  /** A batch's outcome for each of its items, once the server answered it. */
  async function itemOutcomes(group: readonly Queued[], outcome: ApiOutcome): Promise<ApiOutcome[]> {
    // No item was applied, or the server keeps their replies under their keys: every item
    // gets the batch's outcome (401 pauses replay, the rest retry).
    if (retryable(outcome)) return group.map(() => outcome);
    const checked =
      outcome.kind === 'reply' && outcome.status === 200 ? v.safeParse(batchReplySchema, outcome.body) : null;
    const parsed = checked?.success ? checked.output : null;
    if (!parsed || parsed.replies.length !== group.length) {
      // Not a batch reply: nothing was applied. A 404 (or 405/501) is a server without the
      // extension, remembered; anything else (a captive portal's page) only sends these alone.
      if (outcome.kind !== 'unreachable' && [404, 405, 501].includes(outcome.status))
        supportByClient.set(api, false);
      return Promise.all(group.map((g) => sendAlone(g.outgoing)));
    }
    supportByClient.set(api, true);
    const inFlight = batchesInFlight(parsed.appliesAtOnce);
    inFlightByClient.set(api, inFlight);
    // p-limit starts batches waiting for a slot at once when its limit grows.
    if (options.maxBatches === undefined) batches.concurrency = inFlight;
    return parsed.replies.map(({ status, body, replayed }) =>
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? { kind: 'reply', status, body: body as never, replayed }
        : { kind: 'not-json', status },
    );
  }

  /** The batch waiting for a slot, which takes more items while it has room. */
  let waiting: OpenBatch | null = null;

  /** Puts an item in the waiting batch, or in a new one; the item's outcome. */
  function enqueue(queued: Queued): Promise<ApiOutcome> {
    const open = waiting;
    if (open && open.group.length < maxItems && open.bytes + queued.bytes <= maxBytes) {
      open.group.push(queued);
      open.bytes += queued.bytes;
      const index = open.group.length - 1;
      return open.outcomes.then((r) => r[index]);
    }
    const batch: OpenBatch = { group: [queued], bytes: queued.bytes, outcomes: Promise.resolve([]) };
    waiting = batch;
    const sent = batches(() => {
      // Leaving: what it holds now is what it carries.
      if (waiting === batch) waiting = null;
      return api.request(BATCH_PATH, {
        method: 'POST',
        json: { requests: batch.group.map((g) => g.item) },
        headers: auditHeaders(undefined, options.device),
      });
    });
    batch.outcomes = sent
      .then((outcome) => itemOutcomes(batch.group, outcome))
      .catch((error) => batch.group.map((): ApiOutcome => ({ kind: 'unreachable', error: String(error) })));
    return batch.outcomes.then((r) => r[0]);
  }

  return {
    async sendAll(items) {
      return Promise.all(
        items.map((outgoing) => {
          const item = supportByClient.get(api) === false ? null : toItem(outgoing);
          const bytes = item ? utf8.encode(JSON.stringify(item)).length : 0;
          return item && bytes <= maxBytes ? enqueue({ outgoing, item, bytes }) : sendAlone(outgoing);
        }),
      );
    },
  };
}
