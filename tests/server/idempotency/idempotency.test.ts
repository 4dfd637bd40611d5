/** Idempotency-Key: a repeated request gets the stored reply and writes nothing (outbox rule 2). */
import { describe, expect, it } from 'vitest';
import { classEntity } from '../../../src/contract/entities';
import { signedInSuite } from '../../helpers/server';

const P = classEntity.api;
const suite = signedInSuite();

async function countNamed(name: string): Promise<number> {
  const { body } = await suite.client.get(P.list);
  return body.classes.filter((c: { class_name: string }) => c.class_name === name).length;
}

describe('Idempotency-Key', () => {
  it('answers a repeat with the stored reply and the replayed header, adding one row', async () => {
    const key = { 'Idempotency-Key': 'add-once-1' };
    const first = await suite.client.post(P.add, { className: 'Once' }, key);
    const second = await suite.client.post(P.add, { className: 'Once' }, key);
    expect(first.status).toBe(200);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await countNamed('Once')).toBe(1);
  });

  it('replays a stored 4xx with its status', async () => {
    const key = { 'Idempotency-Key': 'bad-add-1' };
    const first = await suite.client.post(P.add, { className: '' }, key);
    const second = await suite.client.post(P.add, { className: '' }, key);
    expect(first.status).toBe(400);
    expect(second).toMatchObject({ status: 400, body: first.body });
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('binds the key to the whole request: another body or query gets 422 and writes nothing', async () => {
    const key = { 'Idempotency-Key': 'bound-1' };
    const first = await suite.client.post(P.add, { className: 'Bound' }, key);
    expect(first.status).toBe(200);
    const otherBody = await suite.client.post(P.add, { className: 'Other body' }, key);
    expect(otherBody).toMatchObject({
      status: 422,
      body: { success: false, message: 'Idempotency-Key reused for a different request' },
    });
    const otherQuery = await suite.client.post(`${P.add}?section_id=3`, { className: 'Bound' }, key);
    expect(otherQuery.status).toBe(422);
    expect(await countNamed('Other body')).toBe(0);
    expect(await countNamed('Bound')).toBe(1);
    // The same request again, its keys in another order, is the same request.
    const again = await suite.client.post(P.add, { className: 'Bound' }, key);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('refuses the same key on another path with 422', async () => {
    const key = { 'Idempotency-Key': 'reused-1' };
    const { body: added } = await suite.client.post(P.add, { className: 'Reused' }, key);
    const reply = await suite.client.post(P.remove, { class_id: added.id }, key);
    expect(reply).toMatchObject({
      status: 422,
      body: { success: false, message: 'Idempotency-Key reused for a different request' },
    });
    expect(await countNamed('Reused')).toBe(1);
  });

  it('adds one row when two requests with one key arrive together', async () => {
    const key = { 'Idempotency-Key': 'concurrent-1' };
    const replies = await Promise.all([
      suite.client.post(P.add, { className: 'Concurrent' }, key),
      suite.client.post(P.add, { className: 'Concurrent' }, key),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(replies[0].body.id).toBe(replies[1].body.id);
    expect(replies.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(1);
    expect(await countNamed('Concurrent')).toBe(1);
  });

  it('keeps different keys apart', async () => {
    await suite.client.post(P.add, { className: 'Twice' }, { 'Idempotency-Key': 'twice-a' });
    await suite.client.post(P.add, { className: 'Twice' }, { 'Idempotency-Key': 'twice-b' });
    expect(await countNamed('Twice')).toBe(2);
  });

  it('refuses an unusable key', async () => {
    const reply = await suite.client.post(
      P.add,
      { className: 'Bad key' },
      { 'Idempotency-Key': 'x'.repeat(201) },
    );
    expect(reply).toMatchObject({ status: 400, body: { success: false } });
    expect(await countNamed('Bad key')).toBe(0);
  });
});
