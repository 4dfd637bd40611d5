// npm run cluster -- --processes 3: several server processes on one PostgreSQL behind haproxy,
// on this machine, to try scale-out (README, "Running several processes").
//
// Needs DATABASE_URL. haproxy (Debian's package) listens on PORT (8080) at HOST (127.0.0.1);
// the processes on PORT+1 … PORT+N on 127.0.0.1, sharing DATA_DIR (uploads, on this one
// machine) and believing haproxy's forwarded headers (TRUST_PROXY=loopback). Every other
// variable of `npm start` is passed on. Ctrl-C (or SIGTERM) shuts the processes down
// gracefully, then haproxy.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildIfStale } from './build-if-stale.mjs';
import { HAPROXY, SERVER_ENTRY, waitFor200 } from './cluster-lib.mjs';
import { haproxyConfig } from './haproxy-config.mjs';

const { values } = parseArgs({ options: { processes: { type: 'string', short: 'n', default: '3' } } });
const count = Number(values.processes);
const fail = (message) => {
  console.error(message);
  process.exit(1);
};
if (!Number.isSafeInteger(count) || count < 1 || count > 32)
  fail('--processes must be a whole number from 1 to 32');
if (!process.env.DATABASE_URL)
  fail(
    'Set DATABASE_URL to the PostgreSQL database the processes share (the embedded database is for one process).',
  );
if (!existsSync(HAPROXY)) fail(`haproxy is missing (${HAPROXY}): apt-get install haproxy`);

buildIfStale();
const port = Number(process.env.PORT || 8080);
const host = process.env.HOST || '127.0.0.1';
const ports = Array.from({ length: count }, (_, i) => port + 1 + i);
const env = {
  ...process.env,
  HOST: '127.0.0.1',
  DATA_DIR: process.env.DATA_DIR || './data',
  TRUST_PROXY: 'loopback',
  // haproxy takes a server out after two failed checks: 2 s, then 500 ms (deploy/haproxy.cfg).
  SHUTDOWN_DELAY_MS: process.env.SHUTDOWN_DELAY_MS || '3000',
};

// Own process groups: Ctrl-C reaches this script only, which shuts them down in order.
const children = ports.map((p) =>
  spawn(process.execPath, [SERVER_ENTRY], {
    env: { ...env, PORT: String(p) },
    stdio: 'inherit',
    detached: true,
  }),
);
const dir = mkdtempSync(join(tmpdir(), 'cluster-haproxy-'));
const config = join(dir, 'haproxy.cfg');
writeFileSync(
  config,
  haproxyConfig({
    bind: `${host}:${port}`,
    servers: ports.map((p, i) => ({ name: `app${i + 1}`, address: `127.0.0.1:${p}` })),
  }),
);
const haproxy = spawn(HAPROXY, ['-db', '-f', config], { stdio: 'inherit', detached: true });

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    children.map(
      (c) =>
        new Promise((done) => {
          if (c.exitCode !== null || c.signalCode !== null) return done();
          c.once('exit', done);
          c.kill('SIGTERM');
        }),
    ),
  );
  haproxy.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
for (const c of [...children, haproxy])
  c.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`A process of the cluster ended (${code ?? signal}): stopping the others.`);
      void stop(1);
    }
  });
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

await Promise.all(ports.map((p) => waitFor200(`http://127.0.0.1:${p}/readyz`, 120_000)));
await waitFor200(`http://127.0.0.1:${port}/readyz`, 30_000);
console.log(
  `${count} processes behind haproxy: http://${host === '0.0.0.0' ? 'localhost' : host}:${port} (processes on ports ${ports.join(', ')}; Ctrl-C stops them all)`,
);
