/**
 * A parent deleted while a child naming it is being written (server/entity-writes/relations.ts):
 * whichever commits first, the other request gets its 4xx (409 or 'does not exist'), never a
 * foreign-key error as a 500. Only PostgreSQL overlaps transactions, hence this project.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classEntity, seriesEntity, subjectEntity } from '../../src/contract/entities';
import { stillUsedBy } from '../../src/contract/messages';
import { api, signIn, startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let client: ReturnType<typeof api>;
let subjectId: number;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('Run with TEST_DATABASE_URL (npm run test:postgres)');
  server = await startTestServer({ seedDemo: true });
  client = api(server.apiRoot, await signIn(server.apiRoot));
  const added = await client.post(subjectEntity.api.add, { subjectName: 'Race', subjectContent: '<p>r</p>' });
  subjectId = added.body.id;
});
afterAll(() => server?.close());

/** Runs `statement` in an open transaction, starts `request`, then commits after a pause. */
async function whileUncommitted<T>(
  statement: string,
  params: unknown[],
  request: () => Promise<T>,
): Promise<T> {
  const writer = new pg.Client({ connectionString: server.databaseUrl });
  await writer.connect();
  try {
    await writer.query('BEGIN');
    await writer.query(statement, params);
    const pending = request();
    await new Promise((r) => setTimeout(r, 300));
    await writer.query('COMMIT');
    return await pending;
  } finally {
    await writer.end();
  }
}

describe('parent and child written at the same time', () => {
  it('a delete waiting on a child being added answers 409', async () => {
    const reply = await whileUncommitted(
      "INSERT INTO series (series_name, class_id, subject_id) VALUES ('Late child', 12, $1)",
      [subjectId],
      () => client.post(classEntity.api.remove, { class_id: 12 }),
    );
    expect(reply).toMatchObject({
      status: 409,
      body: { success: false, message: stillUsedBy(classEntity.names, seriesEntity.names) },
    });
    expect((await client.get(classEntity.api.get, { class_id: 12 })).status).toBe(200);
  });

  it('an add waiting on its parent being deleted answers 400', async () => {
    const reply = await whileUncommitted('DELETE FROM classes WHERE class_id = 11', [], () =>
      client.post(seriesEntity.api.add, {
        seriesName: 'Orphan',
        selectedClass: 11,
        selectedSubject: subjectId,
      }),
    );
    expect(reply).toMatchObject({ status: 400, body: { success: false, message: 'Class does not exist' } });
    expect((await client.get(seriesEntity.api.list, { search: 'Orphan' })).body.total).toBe(0);
  });
});
