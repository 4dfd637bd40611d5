// A throwaway PostgreSQL cluster of Debian's package in a temp folder on a free port (for
// `npm run test:postgres` and the benches bench/scale-out.mjs, server-lists.mjs and first-sync.mjs),
// installed with apt-get when missing and we are root. PostgreSQL refuses to run as root, so the cluster runs as 'postgres'.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './cluster-lib.mjs';

const isRoot = process.getuid?.() === 0;

const findBin = () => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const v = versions.find((x) => existsSync(join(root, x, 'bin/initdb')));
  return v ? join(root, v, 'bin') : null;
};

/**
 * Starts the cluster; resolves with its maintenance URL and `stop()`, which removes it.
 * `settings`: extra `-c name=value` server settings.
 */
export async function startThrowawayPostgres(settings = []) {
  let bin = findBin();
  if (!bin) {
    if (!isRoot)
      throw new Error(
        "PostgreSQL is missing: install Debian's postgresql package, or set TEST_DATABASE_URL.",
      );
    console.log("Installing Debian's postgresql…");
    execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq postgresql'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    bin = findBin();
  }
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (cmd, args) =>
    isRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  const extra = settings.map((s) => `-c ${s}`).join(' ');
  try {
    asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    asPostgres('pg_ctl', [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off ${extra}`,
      'start',
    ]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** The cluster's data directory (postmaster.pid names its server process). */
    data,
    stop() {
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'fast', 'stop']);
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
