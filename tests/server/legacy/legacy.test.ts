/** legacy: true behaves like the plain PHP API, so the client's fallbacks can be tested. */
import { describe, expect, it } from 'vitest';
import { AUDIT_PATH } from '../../../src/contract/audit/audit-trail';
import { classEntity } from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';

const P = classEntity.api;
const suite = signedInSuite({ legacy: true, seedDemo: true });

describe('legacy mode', () => {
  it('sends no id in add replies', async () => {
    const { status, body } = await suite.client.post(P.add, { className: 'Legacy add' });
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, message: 'Class added successfully' });
  });

  it('ignores Idempotency-Key: a repeat adds again', async () => {
    const key = { 'Idempotency-Key': 'legacy-1' };
    await suite.client.post(P.add, { className: 'Legacy twice' }, key);
    const second = await suite.client.post(P.add, { className: 'Legacy twice' }, key);
    expect(second.headers.get('Idempotent-Replayed')).toBeNull();
    const { body } = await suite.client.get(P.list, { search: 'Legacy twice' });
    expect(body.total).toBe(2);
  });

  it('ignores since: a plain full list without cursor or deletions', async () => {
    const { status, body } = await suite.client.get(P.list, { since: 5 });
    expect(status).toBe(200);
    expect(body.cursor).toBeUndefined();
    expect(body.deleted).toBeUndefined();
    expect(body.classes.length).toBe(body.total);
    expect(body.total).toBeGreaterThanOrEqual(12);
  });

  it('has no audit endpoint (our extension), and still keeps the trail', async () => {
    expect((await suite.client.get(AUDIT_PATH)).status).toBe(404);
    await suite.client.post(P.add, { className: 'Legacy audited' });
    const rows = await suite.server.query(
      `SELECT op FROM audit_log WHERE changes->'class_name'->>1 = 'Legacy audited'`,
    );
    expect(rows).toEqual([{ op: 'add' }]);
  });
});
