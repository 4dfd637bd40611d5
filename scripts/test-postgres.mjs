// Runs the 'postgres' test project on a real PostgreSQL, and the 'scale-out' one (the sync
// fault and property suites through haproxy in front of several server processes on it). Uses TEST_DATABASE_URL when set;
// otherwise starts a throwaway cluster of Debian's PostgreSQL in a temp folder on a free
// port (installing the package with apt-get when it is missing and we are root), and
// removes it afterwards. PostgreSQL refuses to run as root, so the cluster runs as 'postgres'.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const vitest = (url) =>
  spawnSync(
    'npx',
    ['vitest', 'run', '--project', 'postgres', '--project', 'scale-out', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, TEST_DATABASE_URL: url },
    },
  ).status ?? 1;

if (process.env.TEST_DATABASE_URL) process.exit(vitest(process.env.TEST_DATABASE_URL));

const isRoot = process.getuid?.() === 0;
const findBin = () => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const v = versions.find((x) => existsSync(join(root, x, 'bin/initdb')));
  return v ? join(root, v, 'bin') : null;
};

let bin = findBin();
if (!bin) {
  if (!isRoot) {
    console.error("PostgreSQL is missing: install Debian's postgresql package, or set TEST_DATABASE_URL.");
    process.exit(1);
  }
  console.log("Installing Debian's postgresql for the PostgreSQL tests…");
  execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq postgresql'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  bin = findBin();
}

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
chmodSync(dir, 0o777);
const data = join(dir, 'data');
const port = await freePort();
const asPostgres = (cmd, args) =>
  isRoot
    ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' })
    : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });

let code = 1;
try {
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  asPostgres('pg_ctl', [
    '-D',
    data,
    '-w',
    '-l',
    join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  console.log(`PostgreSQL test cluster on port ${port}`);
  code = vitest(`postgres://postgres@127.0.0.1:${port}/postgres`);
} finally {
  try {
    asPostgres('pg_ctl', ['-D', data, '-m', 'fast', 'stop']);
  } catch {}
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
