// Starting several server processes and haproxy in front of them on this machine: used by
// `npm run cluster` (scripts/cluster.mjs), the scale-out tests (tests/helpers/cluster.ts) and
// bench/scale-out.mjs. The processes are the built server (dist-server/index.js).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { haproxyConfig } from './haproxy-config.mjs';

const ROOT = resolve(import.meta.dirname, '..');
export const SERVER_ENTRY = join(ROOT, 'dist-server/index.js');
export const HAPROXY = process.env.HAPROXY_PATH || '/usr/sbin/haproxy';

export const freePort = () =>
  new Promise((done) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

/**
 * Children still running when this process exits (a test that timed out while a start was
 * awaited, a bench that failed) are killed with it, never left behind.
 */
const live = new Set();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
const watch = (child) => {
  live.add(child);
  child.once('exit', () => live.delete(child));
};

/**
 * One server process on `port` with `env` added to this process's environment. Resolves once
 * it answers GET /healthz (whatever its LOG_LEVEL) with its own pid; a process that cannot
 * listen (the port taken meanwhile) exits, and the start fails with its last lines. `onLine` gets each line it prints.
 */
export async function startProcess({ port, env, onLine }) {
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  watch(child);
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  let tail = '';
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      onLine?.(line);
      tail = `${tail}${line}\n`.slice(-4000);
    }
  });
  child.stderr.on('data', (chunk) => {
    tail = `${tail}${chunk}`.slice(-4000);
  });
  let gone = false;
  exited.then(() => {
    gone = true;
  });
  for (;;) {
    if (gone) {
      const { code, signal } = await exited;
      throw new Error(`server on port ${port} exited (${code ?? signal}):\n${tail}`);
    }
    // The answer must be this child's (/healthz names its pid): the port was free when it was
    // chosen, but another process (a server of a test running beside) may have taken it since,
    // and a start that talked to that one would send the test's requests to a stranger.
    const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
    const body = res ? await res.json().catch(() => null) : null;
    if (res?.status === 200 && body?.pid === child.pid) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    pid: child.pid,
    child,
    exited,
    /** Sends `signal` and resolves with how the process ended. */
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** haproxy on `port` in front of `servers` (ports on 127.0.0.1); resolves once it listens. */
export async function startHaproxy({ port, servers, inter, fastinter }) {
  const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(
    file,
    haproxyConfig({
      bind: `127.0.0.1:${port}`,
      servers: servers.map((p, i) => ({ name: `app${i + 1}`, address: `127.0.0.1:${p}` })),
      inter,
      fastinter,
    }),
  );
  // -db: stay in the foreground, so that this process owns it and its end.
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  watch(child);
  let errors = '';
  child.stderr.on('data', (c) => {
    errors = `${errors}${c}`.slice(-4000);
  });
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  let up = false;
  exited.then(() => {
    up = false;
  });
  for (let i = 0; i < 200 && child.exitCode === null; i++) {
    up = await new Promise((done) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        done(true);
      });
      s.on('error', () => done(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!up) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`haproxy did not start:\n${errors}`);
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves when `url` answers 200, polling; rejects after `timeoutMs`. */
export async function waitFor200(url, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {}
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
