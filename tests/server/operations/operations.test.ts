/**
 * What an operator and a balancer see of one server: /healthz and /readyz without
 * a session and never cached, /metrics in Prometheus' format for whom it is meant only, the
 * request id, and `Cache-Control: no-store` on signed-in API replies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app/create-app';
import { type RunningServer, startServer } from '../../../server/app/start';
import type { Database } from '../../../server/db';
import { createOps } from '../../../server/ops';
import { saveUpload } from '../../../server/uploads/store';
import { BATCH_PATH } from '../../../src/contract/batch';
import { bookEntity, classEntity } from '../../../src/contract/entities';
import { ADMIN, api, signIn, startTestServer, type TestServer } from '../../helpers/server';
import { form, sampleFile } from '../support/files';

const suite = {} as { server: TestServer; cookie: string; client: ReturnType<typeof api> };
beforeAll(async () => {
  suite.server = await startTestServer();
  suite.cookie = await signIn(suite.server.apiRoot);
  suite.client = api(suite.server.apiRoot, suite.cookie);
}, 120_000);
afterAll(() => suite.server?.close());

const C = classEntity.api;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

const metricsText = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${url}/metrics`, { headers });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
};
/** The value of one sample line (`name{labels} value`), summed over matching lines. */
const sample = (text: string, name: string, labels = '') =>
  text
    .split('\n')
    .filter((l) => l.startsWith(name) && l.includes(labels) && !l.startsWith('#'))
    .filter((l) => l.slice(name.length).startsWith('{') || l.slice(name.length).startsWith(' '))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);

describe('health', () => {
  it('/healthz and /readyz answer without a session, outside the API, never cached', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await fetch(`${suite.server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
    expect(await (await fetch(`${suite.server.url}/readyz`)).json()).toEqual({ status: 'ready' });
    expect(await (await fetch(`${suite.server.url}/healthz`)).json()).toMatchObject({ status: 'ok' });
  });

  it('/readyz answers 503 with the reason when the database does not answer, /healthz still 200', async () => {
    const broken: Database = {
      query: async () => {
        throw new Error('connection refused');
      },
      tx: async () => {
        throw new Error('connection refused');
      },
      listen: async () => {
        throw new Error('connection refused');
      },
      close: async () => {},
    };
    const app = createApp({ db: broken, storage: suite.server.storage, ops: createOps(broken) });
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'database unavailable: connection refused' });
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect((await app.request('/healthz')).status).toBe(200);
  });

  it('/readyz answers 503 "shutting down" from the moment a shutdown begins', async () => {
    const server = await startServer({ port: 0, adminPassword: ADMIN.password });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      server.ops.readiness.beginShutdown();
      const res = await fetch(`${server.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'shutting down' });
      // Everything else is still served.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await api(server.apiRoot).post('Admin_access/login.php', ADMIN)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('request id', () => {
  it('every reply names its request; an untrusted client cannot choose the id', async () => {
    const res = await fetch(`${suite.server.url}/healthz`, { headers: { 'X-Request-Id': 'chosen-by-me' } });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const again = await fetch(`${suite.server.url}/healthz`);
    expect(again.headers.get('x-request-id')).not.toBe(id);
  });
});

describe('Cache-Control on API replies', () => {
  it('signed-in replies, refusals and sign-in say no-store; uploaded files keep their own', async () => {
    const list = await suite.client.get(C.list);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const refused = await suite.client.post(C.add, { className: '' });
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const anonymous = await api(suite.server.apiRoot).get(C.list);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    const login = await api(suite.server.apiRoot).post('Admin_access/login.php', ADMIN);
    expect(login.headers.get('cache-control')).toBe('no-store');

    const name = await saveUpload(suite.server.storage, 'book_cover', PNG, 'png');
    const file = await fetch(`${suite.server.url}/api/uploads/book_cover/${name}`, {
      headers: { Cookie: suite.cookie },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toBe('public, no-cache');
  });
});

describe('metrics', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, adminPassword: ADMIN.password });
  }, 120_000);
  afterAll(() => server?.close());

  it('answers loopback clients in Prometheus text, with the requests, the pool and the process', async () => {
    const client = api(server.apiRoot, await signIn(server.apiRoot));
    await api(server.apiRoot).post('Admin_access/login.php', { username: ADMIN.username, password: 'wrong' });
    await client.post(C.add, { className: 'Counted' }, { 'Idempotency-Key': 'metrics-1' });
    await client.post(C.add, { className: 'Counted' }, { 'Idempotency-Key': 'metrics-1' });
    await client.post(BATCH_PATH, {
      requests: [1, 2, 3].map((i) => ({
        method: 'POST',
        path: C.add,
        key: `m-b${i}`,
        json: { className: `B${i}` },
      })),
    });
    const { status, text, type } = await metricsText(server.url);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, 'http_requests_total', `route="/api/${C.add}",method="POST",status="200"`)).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count', `route="/api/${C.add}"`)).toBe(2);
    expect(sample(text, 'signins_refused_total', 'reason="credentials"')).toBe(1);
    expect(sample(text, 'idempotent_replays_total')).toBe(1);
    expect(sample(text, 'outbox_batch_items_count')).toBe(1);
    expect(sample(text, 'outbox_batch_items_sum')).toBe(3);
    for (const name of [
      'db_pool_size',
      'db_pool_in_use',
      'db_pool_waiting',
      'process_cpu_user_seconds_total',
    ])
      expect(text, name).toMatch(new RegExp(`^${name} \\d`, 'm'));
    expect(sample(text, 'db_pool_size')).toBeGreaterThanOrEqual(1);
  });

  it('counts the bytes of files received', async () => {
    const client = api(server.apiRoot, await signIn(server.apiRoot));
    const before = sample((await metricsText(server.url)).text, 'upload_bytes_received_total', 'multipart');
    // Refused (no such class), but read whole: the bytes were received.
    const body = form({
      selectedClass: 999,
      selectedSubject: 999,
      selectedSeries: 999,
      bookName: 'Counted',
      bookCode: 'CB-1',
      bookCover: sampleFile('png', 'cover.png', 5000),
    });
    await client.post(bookEntity.api.add!, body);
    const after = sample((await metricsText(server.url)).text, 'upload_bytes_received_total', 'multipart');
    expect(after - before).toBeGreaterThan(5000);
  });

  it('is not for clients elsewhere: forwarded requests count by where they came from', async () => {
    // A proxy on this machine that TRUST_PROXY does not name: its request may come from anywhere.
    expect((await metricsText(server.url, { 'X-Forwarded-For': '127.0.0.1' })).status).toBe(404);
    const trusting = await startServer({ port: 0, adminPassword: ADMIN.password, trustProxy: 'loopback' });
    try {
      expect((await metricsText(trusting.url, { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(404);
      const local = await metricsText(trusting.url, { 'X-Forwarded-For': '127.0.0.1' });
      expect(local.status).toBe(200);
      expect((await metricsText(trusting.url)).status).toBe(200);
    } finally {
      await trusting.close();
    }
  });

  it('with METRICS_TOKEN, answers its bearer only (401 otherwise), wherever it comes from', async () => {
    const guarded = await startServer({
      port: 0,
      adminPassword: ADMIN.password,
      metricsToken: 's3cret-token',
    });
    try {
      const none = await metricsText(guarded.url);
      expect(none.status).toBe(401);
      expect(none.text).not.toContain('http_requests_total');
      expect((await metricsText(guarded.url, { Authorization: 'Bearer wrong-token' })).status).toBe(401);
      const right = await metricsText(guarded.url, { Authorization: 'Bearer s3cret-token' });
      expect(right.status).toBe(200);
      expect(right.text).toContain('http_requests_total');
    } finally {
      await guarded.close();
    }
  });
});
