/**
 * Slow clients: one that sends its headers, or a body other than an upload
 * chunk, a byte at a time is cut within REQUEST_TIMEOUT_SECONDS plus at most 10 s, while other
 * requests are served meanwhile; a resumable upload's chunk has its own, longer allowance.
 * The server runs with a 1 s request timeout here.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../server/app/start';
import { classEntity } from '../../../src/contract/entities';
import { RESUMABLE_PATH } from '../../../src/contract/resumable';
import { ADMIN, signIn } from '../../helpers/server';

const TIMEOUT_S = 1;
/** The bound: the timeout plus at most 10 s. */
const CUT_WITHIN_MS = (TIMEOUT_S + 10) * 1000;
let server: RunningServer;
let cookie: string;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    adminPassword: ADMIN.password,
    timeouts: { requestSeconds: TIMEOUT_S, uploadChunkSeconds: 60 },
  });
  cookie = await signIn(server.apiRoot);
}, 120_000);
afterAll(() => server?.close());

/**
 * Sends `head` whole, then `dribble` one byte every 100 ms until the server closes the
 * connection or `CUT_WITHIN_MS` passes. Resolves with whether the server closed it, what it
 * answered, and the reply of a request made by another client meanwhile.
 */
async function dribble(head: string, dribble: string) {
  const socket = net.connect(server.port, '127.0.0.1');
  socket.on('error', () => {});
  let answer = '';
  socket.on('data', (d) => {
    answer += d;
  });
  const closed = new Promise<boolean>((resolve) => {
    socket.on('close', () => resolve(true));
    setTimeout(() => resolve(false), CUT_WITHIN_MS).unref();
  });
  socket.write(head);
  let i = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(dribble[i++ % dribble.length]);
  }, 100);
  const other = await fetch(`${server.url}/healthz`);
  const wasClosed = await closed;
  clearInterval(timer);
  socket.destroy();
  return { wasClosed, answer, otherStatus: other.status };
}

describe('a slow client', () => {
  it('sending its headers a byte at a time is cut, and others are served meanwhile', async () => {
    const { wasClosed, answer, otherStatus } = await dribble(
      'GET /healthz HTTP/1.1\r\nHost: x\r\n',
      'X-Slow: abcdefgh\r\n',
    );
    expect(wasClosed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"success":false');
    expect(otherStatus).toBe(200);
  });

  it('sending a body a byte at a time is cut, signed in or not', async () => {
    for (const auth of ['', `Cookie: ${cookie}\r\n`]) {
      const body = JSON.stringify({ className: 'x'.repeat(500) });
      const { wasClosed, answer, otherStatus } = await dribble(
        `POST /api/${classEntity.api.add} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`,
        body,
      );
      expect(wasClosed, auth).toBe(true);
      // Nothing was applied: the body never arrived whole.
      expect(answer, auth).not.toContain('"success":true');
      expect(otherStatus).toBe(200);
    }
  });

  it('an upload chunk may take longer than the request timeout', async () => {
    const created = await fetch(`${server.apiRoot}/${RESUMABLE_PATH}/`, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', Cookie: cookie, 'Upload-Length': '30' },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get('Location')!, server.url).pathname;
    const socket = net.connect(server.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => {
      answer += d;
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `PATCH ${path} HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nTus-Resumable: 1.0.0\r\n` +
        'Upload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: 30\r\n\r\n',
    );
    // 30 bytes, one every 100 ms: three times the request timeout.
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 100));
      socket.write('a');
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 204 /);
    expect(answer).toMatch(/upload-offset: 30/i);
  });
});
