// Runs the 'postgres' test project on a real PostgreSQL, and the 'scale-out' one (the sync
// fault and property suites through haproxy in front of several server processes on it).
// Uses TEST_DATABASE_URL when set; otherwise starts a throwaway cluster of Debian's
// PostgreSQL (scripts/pg-cluster.mjs) and removes it afterwards.
import { spawnSync } from 'node:child_process';
import { startThrowawayPostgres } from './pg-cluster.mjs';

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

let cluster;
try {
  cluster = await startThrowawayPostgres();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
let code = 1;
try {
  console.log(`PostgreSQL test cluster on port ${cluster.port}`);
  code = vitest(cluster.url);
} finally {
  cluster.stop();
}
process.exit(code);
