/**
 * Malformed requests to every endpoint, generated from the endpoint table
 * (tests/server/support/malformed.ts): every entity endpoint of allEndpoints, the batch
 * endpoint and login. Each reply must be a JSON 4xx with `success: false` (never a 5xx, never
 * anything but JSON); a batch whose envelope is well-formed answers 200, and then each of its
 * malformed items must have been refused on its own (json: [] in an item, for one, passes the
 * envelope's schema and is refused as an empty body). After
 * each endpoint's run every table (row counts and a checksum of the rows; the stored replies
 * and the sessions aside) and the uploads folder must be as they were.
 *
 * Runs: FUZZ_RUNS requests per endpoint (default 50; `npm run test:property` runs 500).
 * A failure prints fast-check's seed and path: FUZZ_SEED=<seed> reproduces the run.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../../src/contract/endpoints';
import { entities } from '../../../src/contract/entities';
import { snapshotServer } from '../../helpers/db-snapshot';
import { signedInSuite, signIn } from '../../helpers/server';
import {
  batchTarget,
  type Draft,
  encode,
  loginTarget,
  malformedBatchItems,
  malformedRequests,
  type Target,
  targetsOf,
} from '../support/malformed';

const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

const suite = signedInSuite({ seedDemo: true });
let cookie = '';
beforeAll(async () => {
  cookie = await signIn(suite.server.apiRoot);
});

const entityTargets = entities.flatMap(targetsOf);
const targets: Target[] = [...entityTargets, batchTarget, loginTarget];

interface Seen {
  status: number;
  type: string | null;
  body: unknown;
}

async function send(draft: Draft): Promise<Seen> {
  const { url, init } = encode(draft, suite.server.apiRoot);
  // Login is reached without a session, as a browser signing in would.
  if (draft.path !== loginTarget.endpoint.path) (init.headers as Record<string, string>).Cookie = cookie;
  const res = await fetch(url, init);
  const textBody = await res.text();
  let body: unknown = textBody;
  try {
    body = JSON.parse(textBody);
  } catch {}
  return { status: res.status, type: res.headers.get('content-type'), body };
}

function checkRefused(draft: Draft, seen: Seen): void {
  const label = `→ ${seen.status} ${JSON.stringify(seen.body).slice(0, 300)}`;
  expect(seen.type, label).toMatch(/^application\/json/);
  // A batch whose envelope passes answers 200 with each item's own reply: each must be a refusal.
  if (draft.itemsRefused || (draft.path === batchTarget.endpoint.path && seen.status === 200)) {
    expect(seen.status, label).toBe(200);
    const replies = (seen.body as { replies: { status: number; body: { success: boolean } }[] }).replies;
    expect(replies.length, label).toBe((draft.body.requests as unknown[]).length);
    for (const reply of replies) {
      expect(reply.status, label).toBeGreaterThanOrEqual(400);
      expect(reply.status, label).toBeLessThan(500);
      expect(reply.body, label).toMatchObject({ success: false, message: expect.any(String) });
    }
    return;
  }
  expect(seen.status, label).toBeGreaterThanOrEqual(400);
  expect(seen.status, label).toBeLessThan(500);
  expect(seen.body, label).toMatchObject({ success: false, message: expect.any(String) });
}

async function fuzz(arbitrary: fc.Arbitrary<Draft>): Promise<number> {
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (draft) => {
      checkRefused(draft, await send(draft));
      sent++;
    }),
    { numRuns: RUNS, seed: SEED },
  );
  return sent;
}

describe('the fuzz covers the endpoint table', () => {
  it('every endpoint of every entity has a target', () => {
    const covered = new Set(entityTargets.map((t) => t.endpoint));
    for (const entity of entities)
      for (const ep of allEndpoints(entity)) expect(covered.has(ep), `${entity.name} ${ep.path}`).toBe(true);
  });
});

describe.each(targets.map((t) => [t.name, t] as const))('malformed requests: %s', (_name, target) => {
  it(`${RUNS} requests: each a JSON 4xx with success false; tables and uploads unchanged`, async () => {
    const before = await snapshotServer(suite.server);
    expect(await fuzz(malformedRequests(target))).toBe(RUNS);
    expect(await snapshotServer(suite.server)).toEqual(before);
  });
});

describe('a well-formed batch of malformed items', () => {
  it(`${RUNS} batches: each item refused on its own; tables and uploads unchanged`, async () => {
    const before = await snapshotServer(suite.server);
    expect(await fuzz(malformedBatchItems(entityTargets))).toBe(RUNS);
    expect(await snapshotServer(suite.server)).toEqual(before);
  });
});
