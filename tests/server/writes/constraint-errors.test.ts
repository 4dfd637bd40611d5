/**
 * A database constraint that refuses a write is a 409 or a 422 naming the field, in
 * the legacy error shape, never a 500 (which a client retries forever). Alone or as a batch
 * item (refused alone, the others committed), on PGlite and on PostgreSQL (this suite runs on
 * both: `npm run test:postgres`). The fixture entities reach every class the real schema
 * checks before the database could (tests/helpers/fixture-entities.ts).
 */
import { describe, expect, it } from 'vitest';
import { BATCH_PATH } from '../../../src/contract/batch';
import { classEntity } from '../../../src/contract/entities';
import {
  FIXTURE_WIDGET_V1_MIGRATIONS,
  fixtureWidgetV1,
  PROBE_MIGRATIONS,
  probeEntity,
  registerFixtures,
} from '../../helpers/fixture-entities';
import { signedInSuite } from '../../helpers/server';

registerFixtures(fixtureWidgetV1, probeEntity);
const suite = signedInSuite({
  seedDemo: true,
  settings: { extraMigrations: [...FIXTURE_WIDGET_V1_MIGRATIONS, ...PROBE_MIGRATIONS] },
});
const P = probeEntity.api;
const B = fixtureWidgetV1.api;

let n = 0;
/** A probe that breaks nothing, with `fields` on top. */
const probe = (fields: Record<string, unknown> = {}) => ({ probeName: `Probe ${++n}`, level: 1, ...fields });
const probeCount = async () =>
  (await suite.server.query<{ n: number }>('SELECT count(*) AS n FROM probes'))[0].n;

/** Each class of violation: the request's fields, the reply's status, message and field. */
const violations: [
  name: string,
  fields: () => Record<string, unknown>,
  status: number,
  message: string,
  field?: string,
][] = [
  [
    'unique (23505)',
    () => probe({ probeName: 'Taken' }),
    409,
    'Probe Name is already used by another probe',
    'probe_name',
  ],
  ['exclusion (23P01)', () => probe({ tag: 'blue' }), 409, 'Tag is already used by another probe', 'tag'],
  [
    'foreign key (23503)',
    () => probe({ classNumber: 999_999 }),
    422,
    'Class Number does not exist',
    'class_number',
  ],
  ['check (23514)', () => probe({ score: -1 }), 422, 'Score is not an accepted value', 'score'],
  ['not null (23502)', () => ({ probeName: `Probe ${++n}` }), 422, 'Level is required', 'level'],
  [
    'string too long (22001)',
    () => probe({ code: 'ABCDE' }),
    422,
    'A text is longer than the database accepts',
  ],
  [
    'numeric out of range (22003)',
    () => probe({ small: 40_000 }),
    422,
    'A number is outside the range the database accepts',
  ],
];

describe('constraint violations are refusals, not 500s', () => {
  it('the rows the violations collide with', async () => {
    for (const fields of [probe({ probeName: 'Taken' }), probe({ tag: 'blue' })]) {
      const reply = await suite.client.post(P.add!, fields);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
  });

  it.each(violations)(
    '%s: alone, the legacy shape with the field',
    async (_, fields, status, message, field) => {
      const before = await probeCount();
      const reply = await suite.client.post(P.add!, fields(), { 'Idempotency-Key': `alone-${n}` });
      expect(reply.status, JSON.stringify(reply.body)).toBe(status);
      // `error` too: the probe's client reads it, as addlibrary.php's does (errorField).
      expect(reply.body).toEqual({ success: false, message, error: message, ...(field ? { field } : {}) });
      expect(await probeCount()).toBe(before);
    },
  );

  it.each(violations)(
    '%s: in a batch, refused alone between two that commit',
    async (_, fields, status, message) => {
      const before = await probeCount();
      const item = (json: Record<string, unknown>, key: string) => ({
        method: 'POST',
        path: P.add,
        key,
        json,
      });
      const { body } = await suite.client.post(BATCH_PATH, {
        requests: [item(probe(), `b1-${n}`), item(fields(), `b2-${n}`), item(probe(), `b3-${n}`)],
      });
      expect(body.replies.map((r: { status: number }) => r.status)).toEqual([200, status, 200]);
      expect(body.replies[1].body).toMatchObject({ success: false, message, error: message });
      expect(await probeCount()).toBe(before + 2);
    },
  );

  it('an update meets the same constraints', async () => {
    const id = (await suite.client.post(P.add!, probe())).body.id;
    const reply = await suite.client.post(P.update!, { probe_id: id, ...probe({ probeName: 'Taken' }) });
    expect(reply).toMatchObject({
      status: 409,
      body: {
        success: false,
        message: 'Probe Name is already used by another probe',
        error: 'Probe Name is already used by another probe',
        field: 'probe_name',
      },
    });
  });

  it("a delete of a row still named (foreign key, 23503) is a 409 in the words of the server's own check", async () => {
    const classId = (await suite.client.post(classEntity.api.add, { className: 'Probed class' })).body.id;
    await suite.client.post(P.add!, probe({ classNumber: classId }));
    const reply = await suite.client.post(classEntity.api.remove!, { class_id: classId });
    expect(reply).toMatchObject({
      status: 409,
      body: {
        success: false,
        message: 'This class cannot be deleted: probes still belong to it. Delete them first.',
      },
    });
    expect(await suite.server.query('SELECT 1 FROM classes WHERE class_id = $1', [classId])).toHaveLength(1);
  });

  it('a unique rule of the description: the same words the device shows, the stored refusal under its key', async () => {
    const first = await suite.client.post(B.add!, { widgetName: 'CBSE' });
    expect(first.status).toBe(200);
    const headers = { 'Idempotency-Key': 'dup-cbse' };
    const dup = await suite.client.post(B.add!, { widgetName: 'CBSE' }, headers);
    expect(dup).toMatchObject({
      status: 409,
      body: {
        success: false,
        message: 'Widget Name is already used by another fixture widget',
        field: 'widget_name',
      },
    });
    // Final: the repeat under the same key is answered from the stored refusal.
    const repeat = await suite.client.post(B.add!, { widgetName: 'CBSE' }, headers);
    expect(repeat.status).toBe(409);
    expect(repeat.headers.get('Idempotent-Replayed')).toBe('true');
    // Exact text: another case is another name.
    expect((await suite.client.post(B.add!, { widgetName: 'cbse' })).status).toBe(200);
  });
});
