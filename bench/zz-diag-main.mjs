import { throttledFirstSyncs } from '/work/wt/longtasks/bench/zz-diag.mjs';

const ok = await throttledFirstSyncs({
  engine: process.env.ENGINE ?? 'PostgreSQL',
  students: Number(process.env.N ?? 100000),
  runs: 1,
  rate: 4,
});
process.exit(ok ? 0 : 1);
