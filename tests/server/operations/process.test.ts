/**
 * The server as a process (dist-server/index.js, spawned as an operator runs it): its stdout
 * is JSON log lines without secrets, a bad configuration ends the start with one line, and
 * SIGTERM shuts it down gracefully.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort, SERVER_ENTRY, type ServerProcess, startProcess } from '../../../scripts/cluster-lib.mjs';
import { PGLITE_EXTENSIONS } from '../../../server/db/pglite';
import { classEntity } from '../../../src/contract/entities';
import { RESUMABLE_PATH } from '../../../src/contract/resumable';
import { api, createTestDatabase, signIn } from '../../helpers/server';

const C = classEntity.api;
const PASSWORD = 'Admin-Secret-4711';
// Each test spawns the built server on a fresh PGlite (its migrations run at start): on a loaded
// machine a start alone can take longer than the project's 30 s.
vi.setConfig({ testTimeout: 120_000 });
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Started {
  proc: ServerProcess;
  url: string;
  apiRoot: string;
  lines: string[];
  /** SQL on the process's database, after it exited (PGlite) or any time (PostgreSQL). */
  query(sql: string): Promise<Record<string, unknown>[]>;
}

/** A process on its own data: PGlite in a temp folder, or a fresh PostgreSQL database. */
async function start(env: Record<string, string> = {}): Promise<Started> {
  const dataDir = await mkdtemp(join(tmpdir(), 'process-test-'));
  const maintenance = process.env.TEST_DATABASE_URL;
  const database = maintenance ? await createTestDatabase(maintenance) : undefined;
  cleanups.push(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const lines: string[] = [];
  const port = await freePort();
  const proc = await startProcess({
    port,
    env: {
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      ADMIN_PASSWORD: PASSWORD,
      DEMO_DATA: 'off',
      STATIC_DIR: join(dataDir, 'no-app'),
      ...env,
    },
    onLine: (line) => lines.push(line),
  });
  cleanups.push(() => proc.stop('SIGKILL'));
  const url = `http://127.0.0.1:${port}`;
  return {
    proc,
    url,
    apiRoot: `${url}/api`,
    lines,
    async query(sql) {
      if (database) {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          return (await client.query(sql)).rows;
        } finally {
          await client.end();
        }
      }
      const { PGlite } = await import('@electric-sql/pglite');
      const db = await PGlite.create({ dataDir: join(dataDir, 'pgdata'), extensions: PGLITE_EXTENSIONS });
      try {
        return (await db.query<Record<string, unknown>>(sql)).rows;
      } finally {
        await db.close();
      }
    },
  };
}

/** A POST whose body is held back after `sent` bytes until `finish()`; `reply` resolves with the raw reply. */
function slowPost(port: number, path: string, cookie: string, body: string, sent: number) {
  const socket = net.connect(port, '127.0.0.1');
  let raw = '';
  socket.on('data', (d) => {
    raw += d;
  });
  socket.on('error', () => {});
  const reply = new Promise<string>((resolve) => socket.on('close', () => resolve(raw)));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body.slice(0, sent)}`,
  );
  return { reply, finish: () => socket.write(body.slice(sent)) };
}

const until = async (what: string, check: () => Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
};
/** The slow request reached the server: it counts it in flight, beside this scrape. */
const inFlight = (url: string) =>
  until('the slow request in flight', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return Number(/^http_requests_in_flight (\d+)/m.exec(text)?.[1]) >= 2;
  });
const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.destroy();
      resolve(false);
    });
    s.on('error', () => resolve(true));
  });

describe('log lines', () => {
  it('one JSON line per request with its id, route, status, time, bytes and admin; never a secret', async () => {
    const s = await start({ TRUST_PROXY: 'loopback' });
    const failed = await api(s.apiRoot).post('Admin_access/login.php', {
      username: 'admin',
      password: 'Wrong-Secret-0815',
    });
    expect(failed.status).toBe(401);
    const cookie = await signIn(s.apiRoot, 'admin', PASSWORD);
    const token = cookie.split('=')[1];
    const client = api(s.apiRoot, cookie);
    const added = await client.post(
      C.add,
      { className: 'Logged', password: 'Body-Secret-2342' },
      { 'X-Request-Id': 'from-the-proxy-42' },
    );
    expect(added.headers.get('x-request-id')).toBe('from-the-proxy-42');
    const listed = await client.get(C.list, { search: 'Ada Lovelace', page: 1 });
    expect(listed.status).toBe(200);

    const { code } = await s.proc.stop('SIGTERM');
    expect(code).toBe(0);
    const parsed = s.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // Start-up and shutdown messages are log lines too.
    expect(parsed.some((l) => String(l.msg).includes('is running at'))).toBe(true);
    expect(parsed.some((l) => String(l.msg).startsWith('SIGTERM received'))).toBe(true);
    const requests = parsed.filter((l) => l.msg === 'request');
    const login = requests.find((l) => l.status === 401)!;
    expect(login).toMatchObject({ level: 'info', method: 'POST', path: '/api/Admin_access/login.php' });
    expect(login.adminId).toBeUndefined();
    const add = requests.find((l) => l.reqId === 'from-the-proxy-42')!;
    expect(add).toMatchObject({ method: 'POST', route: `/api/${C.add}`, status: 200, pid: s.proc.pid });
    expect(add.adminId).toEqual(expect.any(Number));
    expect(add.durationMs).toEqual(expect.any(Number));
    expect(add.bytes).toBe(Buffer.byteLength(JSON.stringify(added.body)));
    expect(Date.parse(String(add.time))).not.toBeNaN();
    const list = requests.find((l) => String(l.path).startsWith(`/api/${C.list}`))!;
    expect(list.path).toBe(`/api/${C.list}?search=~&page=1`);
    expect(list.reqId).toBe(listed.headers.get('x-request-id'));

    const all = s.lines.join('\n');
    for (const secret of [PASSWORD, 'Wrong-Secret-0815', 'Body-Secret-2342', token, 'Ada', 'Lovelace'])
      expect(all, secret).not.toContain(secret);
  });
});

describe('a start that cannot go on', () => {
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [SERVER_ENTRY], {
        env: { ...process.env, DATA_DIR: join(tmpdir(), 'never-created'), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
      child.on('exit', (code) => resolve({ code, out }));
    });

  it('ends with one line saying why, never a stack', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /PORT must be a positive number, not 'eighty'/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
      [{ SHUTDOWN_DELAY_MS: '40000' }, /SHUTDOWN_DELAY_MS \(40000\) must be shorter/],
      [
        { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
        /Cannot reach the database at postgres:\/\/nobody@127\.0\.0\.1:1\/none: connection refused/,
      ],
    ];
    const maintenance = process.env.TEST_DATABASE_URL;
    if (maintenance) {
      const missing = new URL(maintenance);
      missing.pathname = '/no_such_database_here';
      cases.push([{ DATABASE_URL: missing.toString() }, /does not exist/]);
    }
    for (const [env, message] of cases) {
      const { code, out } = await run(env);
      expect(code, out).toBe(1);
      const lines = out.trim().split('\n');
      expect(lines, out).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ level: 'fatal', msg: expect.stringMatching(message) });
      expect(out).not.toMatch(/\n\s+at /);
    }
  });
});

describe('graceful shutdown', () => {
  it('SIGTERM: not ready at once, still serving for the delay, then the port closes and the request in flight completes', async () => {
    const s = await start({ SHUTDOWN_DELAY_MS: '1500' });
    const cookie = await signIn(s.apiRoot, 'admin', PASSWORD);
    const body = JSON.stringify({ className: 'Committed during shutdown' });
    const slow = slowPost(s.proc.port, `/api/${C.add}`, cookie, body, 10);
    await inFlight(s.url);
    s.proc.child.kill('SIGTERM');
    await until('/readyz 503', async () => (await fetch(`${s.url}/readyz`)).status === 503);
    const ready = await fetch(`${s.url}/readyz`).catch(() => null);
    if (ready) expect(await ready.json()).toEqual({ status: 'shutting down' });
    await until('the port closed', () => refuses(s.proc.port));
    slow.finish();
    const raw = await slow.reply;
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw.toLowerCase()).toContain('connection: close');
    expect(raw).toContain('"success":true');
    expect(await s.proc.exited).toEqual({ code: 0, signal: null });
    const rows = await s.query(
      "SELECT class_name FROM classes WHERE class_name = 'Committed during shutdown'",
    );
    expect(rows).toHaveLength(1);
  });

  it('SIGTERM while an upload chunk is arriving: the chunk is received whole and stored', async () => {
    const s = await start();
    const cookie = await signIn(s.apiRoot, 'admin', PASSWORD);
    const tus = { 'Tus-Resumable': '1.0.0', Cookie: cookie };
    const created = await fetch(`${s.apiRoot}/${RESUMABLE_PATH}/`, {
      method: 'POST',
      headers: { ...tus, 'Upload-Length': '60' },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get('Location')!, s.url).pathname;
    const socket = net.connect(s.proc.port, '127.0.0.1');
    let raw = '';
    socket.on('data', (d) => {
      raw += d;
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `PATCH ${path} HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n` +
        `Content-Type: application/offset+octet-stream\r\nContent-Length: 30\r\n\r\n${'a'.repeat(10)}`,
    );
    await inFlight(s.url);
    s.proc.child.kill('SIGTERM');
    await until('the port closed', () => refuses(s.proc.port));
    socket.write('b'.repeat(20));
    await closed;
    expect(raw).toMatch(/^HTTP\/1\.1 204 /);
    expect(raw).toMatch(/upload-offset: 30/i);
    expect(await s.proc.exited).toEqual({ code: 0, signal: null });
  });

  it('at SHUTDOWN_TIMEOUT_SECONDS a request still running is cut, nothing of it committed, and the exit status says so', async () => {
    const s = await start({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const cookie = await signIn(s.apiRoot, 'admin', PASSWORD);
    const body = JSON.stringify({ className: 'Never finished' });
    const slow = slowPost(s.proc.port, `/api/${C.add}`, cookie, body, 10);
    await inFlight(s.url);
    s.proc.child.kill('SIGTERM');
    expect(await s.proc.exited).toEqual({ code: 1, signal: null });
    expect(await slow.reply).toBe('');
    const cut = s.lines.map((l) => JSON.parse(l)).find((l) => l.cut !== undefined);
    expect(cut).toMatchObject({ level: 'error', cut: 1 });
    expect(await s.query("SELECT 1 FROM classes WHERE class_name = 'Never finished'")).toEqual([]);
  });
});
