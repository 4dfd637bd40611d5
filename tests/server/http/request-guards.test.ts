/**
 * The guards in front of every handler (server/http/guards.ts, limit.ts, body.ts):
 * an anonymous request is refused before its body is read; JSON is bounded in depth and width;
 * NUL is refused in every text field and query; whole numbers stay within int4; an over-long
 * query string gets a JSON answer, not Node's page. Each refusal is a JSON 4xx and writes
 * nothing (tables and uploads compared before and after).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH, MAX_JSON_BYTES, MAX_VALUES, MAX_WIDTH } from '../../../server/http/body';
import { MAX_QUERY_BYTES } from '../../../server/http/guards';
import { MAX_ANONYMOUS_BODY_BYTES, MAX_BODY_BYTES } from '../../../server/http/limit';
import { allEndpoints, authEndpoints, type Endpoint, entityEndpoints } from '../../../src/contract/endpoints';
import { classEntity, entities } from '../../../src/contract/entities';
import { type EntityDescription, wireFields } from '../../../src/contract/entity';
import { snapshotServer } from '../../helpers/db-snapshot';
import { keepAliveExchange, partialBodyRequest } from '../../helpers/raw-http';
import { type ApiReply, signedInSuite, signIn } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });
const LOGIN = authEndpoints.login.path;
const MB = 1024 * 1024;

const expectRefusal = (reply: ApiReply, status: number | number[], message?: string) => {
  const statuses = Array.isArray(status) ? status : [status];
  expect(statuses, JSON.stringify(reply.body)).toContain(reply.status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(reply.body).toMatchObject({ success: false, message: message ?? expect.any(String) });
};

/** A session of its own, for the raw requests (signedInSuite keeps its cookie inside its client). */
let sessionCookie = '';
beforeAll(async () => {
  sessionCookie = await signIn(suite.server.apiRoot);
});

let snapshot: Awaited<ReturnType<typeof snapshotServer>>;
const nothingWritten = async () => expect(await snapshotServer(suite.server)).toEqual(snapshot);

describe('a request without a session is refused before its body is read', () => {
  // The body announced is 10 MB; the client writes 64 KB of it and then waits. A reply while
  // the rest is held back is a reply given without reading the body.
  const tenMb = { contentLength: 10 * MB, send: 64 * 1024 };
  const listPath = `/api/${classEntity.api.list}`;

  it('a 10 MB body to a list endpoint: 401 JSON with the body unread', async () => {
    for (const method of ['GET', 'POST']) {
      const reply = await partialBodyRequest({ port: suite.server.port, method, path: listPath, ...tenMb });
      expect(reply.status).toBe(401);
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(reply.text)).toEqual({ success: false, message: 'Please sign in' });
      expect(reply.bodyBytesSent).toBeLessThan(10 * MB);
    }
  });

  it('a 10 MB body to every write endpoint: 401 JSON with the body unread', async () => {
    const writes = entities.flatMap((e) => allEndpoints(e)).filter((ep) => ep.method === 'POST');
    for (const ep of writes) {
      const query = new URLSearchParams(ep.query).toString();
      const reply = await partialBodyRequest({
        port: suite.server.port,
        method: 'POST',
        path: `/api/${ep.path}${query ? `?${query}` : ''}`,
        ...tenMb,
      });
      expect(reply.status, ep.path).toBe(401);
    }
  });

  it('a 10 MB body to login: 413 JSON from its Content-Length, the body unread', async () => {
    const reply = await partialBodyRequest({
      port: suite.server.port,
      method: 'POST',
      path: `/api/${LOGIN}`,
      ...tenMb,
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text)).toMatchObject({ success: false });
    expect(reply.bodyBytesSent).toBeLessThan(10 * MB);
  });

  it('a chunked body to login without a length: 413 once it passes the small limit', async () => {
    const reply = await partialBodyRequest({
      port: suite.server.port,
      method: 'POST',
      path: `/api/${LOGIN}`,
      send: 10 * MB,
      chunk: 4 * 1024,
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text)).toMatchObject({ success: false });
    // The chunked body never ended (its last chunk was never sent): the reply did not wait for it.
  });

  it('a refused oversized body leaves the keep-alive connection usable (its body is discarded, not parsed)', async () => {
    // Found by the fuzz test: the refusal left the body stream open, the adapter's cleanup
    // could never drain it, and it cut the connection half a second later, killing the next
    // request the client had sent on it.
    const replies = await keepAliveExchange(suite.server.port, [
      { path: `/api/${LOGIN}`, body: 'x'.repeat(300_000) },
      { path: `/api/${LOGIN}`, body: '{}' },
      { path: `/api/${LOGIN}`, body: '{}', after: 1_000 },
    ]);
    expect(replies).toEqual([413, 400, 400]);
  });

  it('login takes a body up to its small limit, and refuses one byte more', async () => {
    const padded = (size: number) => {
      const base = JSON.stringify({ username: 'nobody', password: 'x', pad: '' });
      return JSON.stringify({ username: 'nobody', password: 'x', pad: 'p'.repeat(size - base.length) });
    };
    const fits = await fetch(`${suite.server.apiRoot}/${LOGIN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: padded(MAX_ANONYMOUS_BODY_BYTES),
    });
    expect(fits.status).toBe(401);
    const over = await fetch(`${suite.server.apiRoot}/${LOGIN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: padded(MAX_ANONYMOUS_BODY_BYTES + 1),
    });
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ success: false });
  });

  it('signed in, a body over the 12 MB limit is refused from its Content-Length: 413', async () => {
    const reply = await partialBodyRequest({
      port: suite.server.port,
      method: 'POST',
      path: `/api/${classEntity.api.add}`,
      headers: { Cookie: sessionCookie },
      contentLength: MAX_BODY_BYTES + 1,
      send: 64 * 1024,
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text)).toMatchObject({ success: false });
  });
});

describe('JSON bodies are bounded in depth and width', () => {
  beforeAll(async () => {
    snapshot = await snapshotServer(suite.server);
  });
  const nested = (depth: number) =>
    `{"className":"Deep","x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
  const wide = (items: number) => `{"className":"Wide","x":[${Array(items).fill('0').join(',')}]}`;
  const tooNested = 'The JSON body is nested too deeply or holds too many items';

  it(`refuses nesting deeper than ${MAX_DEPTH} and lists wider than ${MAX_WIDTH}, writing nothing`, async () => {
    expectRefusal(await suite.client.post(classEntity.api.add, nested(MAX_DEPTH + 1)), 400, tooNested);
    expectRefusal(await suite.client.post(classEntity.api.add, wide(MAX_WIDTH + 1)), 400, tooNested);
    const wideObject = `{${Array.from({ length: MAX_WIDTH + 1 }, (_, i) => `"k${i}":0`).join(',')}}`;
    expectRefusal(await suite.client.post(classEntity.api.add, wideObject), 400, tooNested);
    // A deep body that is all brackets: 1 MB of them costs a scan, never a parse.
    expectRefusal(await suite.client.post(classEntity.api.add, '['.repeat(MB)), 400, tooNested);
    await nothingWritten();
  });

  it(`refuses more than ${MAX_VALUES} values in all, though each list is within the width limit`, async () => {
    const row = `[${Array(1_000).fill('0').join(',')}]`;
    const rows = Math.ceil(MAX_VALUES / 1_000) + 1;
    const body = `{"className":"Many","x":[${Array(rows).fill(row).join(',')}]}`;
    expectRefusal(await suite.client.post(classEntity.api.add, body), 400, tooNested);
    await nothingWritten();
  });

  it(`refuses a JSON body over ${MAX_JSON_BYTES / MB} MB from its length, unread (413); takes one at the limit`, async () => {
    const reply = await partialBodyRequest({
      port: suite.server.port,
      method: 'POST',
      path: `/api/${classEntity.api.add}`,
      headers: { Cookie: sessionCookie },
      contentLength: MAX_JSON_BYTES + 1,
      send: 64 * 1024,
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text)).toMatchObject({ success: false });
    // Without a length (chunked), counted once read.
    const chunked = await fetch(`${suite.server.apiRoot}/${classEntity.api.add}`, {
      method: 'POST',
      headers: { Cookie: sessionCookie, 'Content-Type': 'application/json' },
      body: new Blob([`{"className":"Chunked","pad":"${'p'.repeat(MAX_JSON_BYTES)}"}`]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    await nothingWritten();
    const base = JSON.stringify({ className: 'At the JSON limit', pad: '' });
    const atLimit = JSON.stringify({
      className: 'At the JSON limit',
      pad: 'p'.repeat(MAX_JSON_BYTES - base.length),
    });
    const accepted = await suite.client.post(classEntity.api.add, atLimit);
    expect(accepted.status).toBe(200);
    await suite.client.post(classEntity.api.remove, { class_id: accepted.body.id });
  });

  it('brackets and commas inside strings do not count', async () => {
    const text = `[${'{'.repeat(100)},${','.repeat(MAX_WIDTH + 5)}`;
    const reply = await suite.client.post(classEntity.api.add, { className: text.slice(0, 200) });
    expect(reply.status).toBe(200);
    await suite.client.post(classEntity.api.remove, { class_id: reply.body.id });
  });

  it('at the limits the body is parsed and the handler answers', async () => {
    // Depth MAX_DEPTH and width MAX_WIDTH are allowed: the class is added (x is an extra field).
    for (const body of [nested(MAX_DEPTH), wide(MAX_WIDTH)]) {
      const reply = await suite.client.post(classEntity.api.add, body);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      await suite.client.post(classEntity.api.remove, { class_id: reply.body.id });
    }
  });

  it('login and the batch endpoint are bounded too', async () => {
    const deepLogin = await fetch(`${suite.server.apiRoot}/${LOGIN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `{"username":${'['.repeat(MAX_DEPTH + 1)}`,
    });
    expect(deepLogin.status).toBe(400);
    expect(await deepLogin.json()).toEqual({ success: false, message: tooNested });
    expectRefusal(
      await suite.client.post('sync/batch', `{"requests":${'['.repeat(MAX_DEPTH + 1)}`),
      400,
      tooNested,
    );
  });
});

/** A body for an add or update with plausible values; the test then spoils one field. */
function plausibleBody(entity: EntityDescription, op: 'add' | 'update'): Record<string, string> {
  const body: Record<string, string> = {};
  for (const [, spec] of wireFields(entity, op)) {
    if (spec.kind === 'file') continue;
    body[spec.wire] = spec.kind === 'ref' ? '1' : spec.kind === 'number' ? '1' : 'x';
  }
  return body;
}

interface Target {
  entity: EntityDescription;
  endpoint: Endpoint;
  op: 'add' | 'update';
}

const writeTargets: Target[] = entities.flatMap((entity) => {
  const { add, update } = entityEndpoints(entity);
  return [
    ...(add ? [{ entity, endpoint: add, op: 'add' as const }] : []),
    ...(update ? [{ entity, endpoint: update, op: 'update' as const }] : []),
  ];
});

/** Where the request goes and what it carries, with `value` in field `field`. */
function writeRequest(target: Target, field: string, value: string) {
  const { endpoint } = target;
  const body: Record<string, string> = { ...plausibleBody(target.entity, target.op), [field]: value };
  const query: Record<string, string> = { ...endpoint.query };
  if (endpoint.idParam && endpoint.idIn === 'query') query[endpoint.idParam] = '1';
  else if (endpoint.idParam) body[endpoint.idParam] = '1';
  const qs = new URLSearchParams(query).toString();
  const path = `${endpoint.path}${qs ? `?${qs}` : ''}`;
  if (endpoint.encoding === 'multipart') {
    const form = new FormData();
    for (const [k, v] of Object.entries(body)) form.set(k, v);
    return { path, body: form as FormData | Record<string, string> };
  }
  return { path, body: body as FormData | Record<string, string> };
}

describe('NUL is refused everywhere (PostgreSQL text cannot hold it): a 400, never a 500', () => {
  beforeAll(async () => {
    snapshot = await snapshotServer(suite.server);
  });

  it('covers every add and update endpoint of the endpoint table', () => {
    const named = new Set(writeTargets.map((t) => `${t.entity.name} ${t.op}`));
    for (const entity of entities) {
      if (entity.api.add) expect(named, entity.name).toContain(`${entity.name} add`);
      if (entity.api.update) expect(named, entity.name).toContain(`${entity.name} update`);
    }
  });

  it('a NUL in any text field of any add or update: JSON 400, nothing written', async () => {
    let sent = 0;
    for (const target of writeTargets) {
      const texts = wireFields(target.entity, target.op).filter(([, s]) => s.kind !== 'file');
      for (const [, spec] of texts) {
        const { path, body } = writeRequest(target, spec.wire, 'before\u0000after');
        const reply = await suite.client.post(path, body);
        expectRefusal(reply, 400, 'The request must not contain NUL characters');
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(50);
    await nothingWritten();
  });

  it('a NUL in a field name, or in a batch item, is refused the same way', async () => {
    expectRefusal(await suite.client.post(classEntity.api.add, { className: 'x', 'a\u0000': 1 }), 400);
    const batch = {
      requests: [
        { method: 'POST', path: classEntity.api.add, key: 'nul-item-1', json: { className: 'a\u0000' } },
      ],
    };
    expectRefusal(await suite.client.post('sync/batch', batch), 400);
    await nothingWritten();
  });

  it('search=%00 (and a NUL in any other query parameter) on every list: JSON 400', async () => {
    const lists = entities.flatMap((e) => allEndpoints(e)).filter((ep) => ep.method === 'GET');
    expect(lists.filter((ep) => ep.fields.includes('search')).length).toBeGreaterThanOrEqual(7);
    for (const ep of lists) {
      const params = ep.fields.includes('search') ? ['search'] : ep.idParam ? [ep.idParam] : ep.fields;
      for (const param of params.length ? params : ['search']) {
        const reply = await suite.client.get(ep.path, { ...ep.query, [param]: '\u0000' });
        expectRefusal(reply, 400, 'The request must not contain NUL characters');
      }
    }
  });

  it('a NUL in the query of a write is refused before the body is read', async () => {
    expectRefusal(await suite.client.post(`${classEntity.api.add}?x=%00`, { className: 'Query NUL' }), 400);
    await nothingWritten();
  });
});

describe('numbers within the column: int4 and whole', () => {
  beforeAll(async () => {
    snapshot = await snapshotServer(suite.server);
  });

  it.each([1.5, 1e10, 2147483648, -2147483649, '1.5', '1e10', '2147483648', 'NaN', 'Infinity', '1,5'])(
    'sortOrder %s on updateclasses.php: JSON 400',
    async (sortOrder) => {
      const reply = await suite.client.post(classEntity.api.update, {
        class_id: 1,
        className: 'Class 1',
        sortOrder,
      });
      expectRefusal(reply, 400, 'Sort Order must be a whole number between -2147483648 and 2147483647');
      await nothingWritten();
    },
  );

  it('the bounds themselves are stored', async () => {
    const { body: before } = await suite.client.get(classEntity.api.get, { class_id: 1 });
    for (const sortOrder of [2147483647, -2147483648, '12']) {
      const reply = await suite.client.post(classEntity.api.update, {
        class_id: 1,
        className: before.class.class_name,
        sortOrder,
      });
      expect(reply.status).toBe(200);
    }
    await suite.client.post(classEntity.api.update, {
      class_id: 1,
      className: before.class.class_name,
      sortOrder: before.class.sort_order,
    });
  });

  it('ids beyond a bigint, negative or fractional: JSON 4xx', async () => {
    snapshot = await snapshotServer(suite.server);
    for (const id of ['99999999999999999999', '-1', '1.5', '1e3', '0x10']) {
      expectRefusal(await suite.client.get(classEntity.api.get, { class_id: id }), [400, 404]);
      expectRefusal(
        await suite.client.post(classEntity.api.update, { class_id: id, className: 'x' }),
        [400, 404],
      );
      expectRefusal(await suite.client.post(classEntity.api.remove, { class_id: id }), [400, 404]);
    }
    await nothingWritten();
  });
});

describe('over-long query strings get a JSON answer', () => {
  it(`a query over ${MAX_QUERY_BYTES} bytes: JSON 414`, async () => {
    const reply = await suite.client.get(classEntity.api.list, { search: 'q'.repeat(MAX_QUERY_BYTES + 1) });
    expectRefusal(reply, 414, 'The query string is too long');
  });

  it('a 1 MB query string (beyond what Node itself reads): JSON 431, not Node’s page', async () => {
    for (const cookie of [sessionCookie, '']) {
      const res = await fetch(`${suite.server.apiRoot}/${classEntity.api.list}?search=${'q'.repeat(MB)}`, {
        headers: cookie ? { Cookie: cookie } : {},
      });
      expect([414, 431]).toContain(res.status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ success: false, message: expect.any(String) });
    }
  });

  it('the same for a write: nothing written', async () => {
    snapshot = await snapshotServer(suite.server);
    const res = await fetch(`${suite.server.apiRoot}/${classEntity.api.add}?x=${'q'.repeat(MB)}`, {
      method: 'POST',
      headers: { Cookie: sessionCookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ className: 'Long query' }),
    });
    expect([414, 431]).toContain(res.status);
    expect(await res.json()).toMatchObject({ success: false });
    await nothingWritten();
  });
});
