/**
 * A CSV import delivered through the outbox to the real server over HTTP: rows
 * queued a slice at a time reach the server exactly once although batch replies are lost after
 * the server committed them; rows the server refuses (their school was deleted there after the
 * device last heard of it) end as failed changes in the import's report with the server's
 * words, and are not sent again.
 */
import { describe, expect, it } from 'vitest';
import { schoolEntity, studentEntity } from '../../src/contract/entities';
import type { EntityDescription } from '../../src/contract/entity';
import { wireRequest } from '../../src/contract/wire-request';
import { checkFile } from '../../src/db/csv/csv-files';
import { deliveryOf, importsOf, queueSlice, startImport } from '../../src/db/csv/imports';
import { writeSignedInUser } from '../../src/db/meta';
import type { ApiClient } from '../../src/sync/api/api-client';
import { requestOptions } from '../../src/sync/api/encode-request';
import { pull } from '../../src/sync/pull/pull';
import { api, signIn } from '../helpers/server';
import { drain, syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();

async function send(client: ApiClient, entity: EntityDescription, op: 'list' | 'add', values = {}) {
  const request = op === 'list' ? wireRequest(entity, { op }) : wireRequest(entity, { op, values });
  const outcome = await client.request(request.path, requestOptions(request));
  if (outcome.kind !== 'reply') throw new Error('no reply');
  return outcome.body;
}

const school = (name: string) => ({
  school_name: name,
  school_address: 'Road 1',
  password: 'secret-12',
  // Schools are unique by e-mail: each its own.
  email: `office@${name.toLowerCase().replace(/\W+/g, '-')}.example.org`,
  contact_no: '12345',
  country: 'IN',
  state: 'MH',
  city: 'Pune',
});

describe('a CSV import through the outbox', () => {
  it('reaches the server once per row under lost replies; refused rows are reported, not re-sent', async () => {
    const { ctx, proxy, server } = await fixtures.proxied();
    await writeSignedInUser(ctx.db, 'admin');
    await send(ctx.api, schoolEntity, 'add', school('Lakeside High'));
    await send(ctx.api, schoolEntity, 'add', school('Closing Academy'));
    await pull(ctx);
    const schools = (await send(ctx.api, schoolEntity, 'list')).schools as Record<string, string>[];
    const closing = schools.find((s) => s.school_name === 'Closing Academy')!;

    const lines = ['Student Name,Email,Password,Contact Number,Country,School'];
    for (let i = 1; i <= 24; i++)
      lines.push(
        `Pupil ${i},pupil${i}@example.org,secret-12,12345,IN,${i % 8 === 0 ? 'Closing Academy' : 'Lakeside High'}`,
      );
    const text = lines.join('\n');
    const { check, rows } = await checkFile(ctx.db, studentEntity, text);
    expect(check).toMatchObject({ total: 24, ready: 24, problems: [] });
    await startImport(ctx.db, {
      id: 'i1',
      entity: 'student',
      hash: 'h',
      fileName: 'f.csv',
      text,
      rows,
      startedAt: 1,
    });
    while (
      'queued' in (await queueSlice(ctx.db, 'i1', 10)) &&
      (await importsOf(ctx.db).get('i1'))!.state === 'queueing'
    );

    // The school goes on the server; then the batch loses its reply after the server committed it.
    const admin = api(server.apiRoot, await signIn(server.apiRoot));
    expect(
      (await admin.post('Users/Schools/deleteschool.php', { school_id: closing.school_id })).body.success,
    ).toBe(true);
    proxy.dropRepliesTo(/sync\/batch/, 1);
    await drain(ctx);
    // The reply lost was of a batch the server had committed (each pupil is there once, below).
    expect(proxy.log.filter((r) => r.fault === 'drop')).toHaveLength(24);

    const students = (await send(ctx.api, studentEntity, 'list')).students as Record<string, string>[];
    const names = students.map((s) => s.student_name);
    expect(names).toHaveLength(21);
    expect(new Set(names).size).toBe(21);
    expect(names).not.toContain('Pupil 8');

    const record = (await importsOf(ctx.db).get('i1'))!;
    const delivery = await deliveryOf(ctx.db, record);
    expect(delivery).toMatchObject({ total: 24, delivered: 24, imported: 21 });
    expect(delivery.refused.map((r) => r.line)).toEqual([9, 17, 25]);
    expect(delivery.refused[0].error).toMatch(/School/);
    // Refused changes stay failed: another replay sends nothing.
    const before = proxy.log.length;
    await drain(ctx);
    expect(proxy.log.length).toBe(before);
    expect(await ctx.db.outbox.where('status').equals('failed').count()).toBe(3);
  }, 120_000);
});
