// A throwaway cluster of Debian's PostgreSQL in a temp folder on a free port, for the
// PostgreSQL tests (scripts/test-postgres.mjs) and the benchmarks that compare both engines
// (bench/server-lists.mjs, bench/first-sync.mjs). Installs the package with apt-get when it is
// missing and we are root. PostgreSQL refuses to run as root, so the cluster runs as 'postgres'.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const isRoot = process.getuid?.() === 0;

const findBin = () => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const v = versions.find((x) => existsSync(join(root, x, 'bin/initdb')));
  return v ? join(root, v, 'bin') : null;
};

function postgresBin() {
  const bin = findBin();
  if (bin) return bin;
  if (!isRoot)
    throw new Error("PostgreSQL is missing: install Debian's postgresql package, or set TEST_DATABASE_URL.");
  console.log("Installing Debian's postgresql…");
  execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq postgresql'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return findBin();
}

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/**
 * Starts a cluster and resolves to `{ url, stop() }`: `url` is its maintenance database
 * (postgres://postgres@127.0.0.1:<port>/postgres); `stop()` stops it and removes its folder.
 * `settings`: more `-c name=value` server settings.
 */
export async function startPostgresCluster({ settings = [] } = {}) {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'pg-cluster-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (cmd, args) =>
    isRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  const stop = () => {
    try {
      asPostgres('pg_ctl', ['-D', data, '-m', 'fast', 'stop']);
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c fsync=off'];
    for (const s of settings) options.push(`-c ${s}`);
    asPostgres('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', options.join(' '), 'start']);
  } catch (err) {
    stop();
    throw err;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop };
}
