/**
 * The reference server for the benchmarks: `node dist-server/index.js` on a free port with its
 * own temp DATA_DIR, serving dist-bench/ (so the bench pages and the API share an origin and
 * the session cookie works). Build first: `npm run build:server` and the bench pages.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { needBuilt } from './built.mjs';

const ROOT = resolve(import.meta.dirname, '..');
export const ADMIN = { username: 'admin', password: 'admin123' };

/**
 * Resolves once the server listens; `close()` stops it and removes its data. `staticDir`: the
 * built app to serve instead of dist-bench/ (the latency bench serves dist/). `dataDir`: a
 * DATA_DIR prepared by the caller (a seeded one), kept on close; `env`: more settings
 * (DATABASE_URL, API_EXTENSIONS); `root`: the build to run (bench/baseline.mjs), this checkout
 * by default.
 */
export async function startBenchServer({
  cpuProfileDir,
  staticDir,
  dataDir: givenDir,
  env = {},
  root = ROOT,
} = {}) {
  if (root === ROOT) needBuilt('dist-server/index.js');
  // PORT must be a positive number (server/app/config.ts): take a free one.
  const freePort = await new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
  const dataDir = givenDir ?? (await mkdtemp(join(tmpdir(), 'bench-server-')));
  const startedAt = performance.now();
  /** Starts the process; resolves once it listens. */
  const launch = async () => {
    const child = spawn(
      process.execPath,
      [
        ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : []),
        join(root, 'dist-server/index.js'),
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          PORT: String(freePort),
          DATA_DIR: dataDir,
          STATIC_DIR: staticDir ?? join(root, 'dist-bench'),
          ADMIN_USERNAME: ADMIN.username,
          ADMIN_PASSWORD: ADMIN.password,
          API_EXTENSIONS: 'on',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let log = '';
    await new Promise((done, fail) => {
      const onData = (chunk) => {
        log += chunk;
        if (/running at http:\/\/[^:]+:(\d+)/.test(log)) done();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (chunk) => {
        log += chunk;
      });
      child.once('exit', (code) => fail(new Error(`Server exited with ${code}:\n${log}`)));
    });
    // Its last words when it ends unasked (a bench then fails on a refused connection).
    child.once('exit', (code, signal) => {
      if (!stopping) console.error(`Server exited with ${code ?? signal}:\n${log.slice(-4000)}`);
    });
    return child;
  };
  let stopping = false;
  let child = await launch();
  const stop = async (signal) => {
    stopping = true;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill(signal);
    await exited;
  };
  const apiRoot = `http://127.0.0.1:${freePort}/api`;
  return {
    port: freePort,
    /** The server's process id (bench/cpu.mjs reads its CPU time). */
    get pid() {
      return child.pid;
    },
    /** Seconds since the process was started (to find a stretch in its CPU profile). */
    uptime: () => (performance.now() - startedAt) / 1000,
    apiRoot,
    dataDir,
    /** Kills the process at once (SIGKILL, as a crash would), keeping its data. */
    kill: () => stop('SIGKILL'),
    /** Starts it again on the same port with the same data; resolves once it listens. */
    async restart() {
      stopping = false;
      child = await launch();
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) await stop('SIGTERM');
      if (!givenDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in from Node and returns the Cookie header value. */
export async function serverSignIn(apiRoot) {
  const res = await fetch(`${apiRoot}/Admin_access/login.php`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const setCookie = res.headers.get('set-cookie');
  if (!setCookie) throw new Error(`Sign-in failed with ${res.status}`);
  return setCookie.split(';')[0];
}

/**
 * Signs the bench's administrator in through the app's own login page and waits until the
 * service worker controls the page and the first pull (the server's demo data) has settled.
 */
export async function signInPage(page, origin) {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/homepage$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // Settled: the top bar says the device is up to date. Not 'networkidle': the live stream
  // keeps a request open for as long as the page is signed in.
  await page
    .getByTestId('sync-status')
    .filter({ hasText: /^(Online|Live)$/ })
    .waitFor({ timeout: 120_000 });
}
