/**
 * The builds a bench compares, run alternately on the same machine: an earlier commit, exported
 * with `git archive` into a temp folder and built there once (the app, the server and the bench
 * pages), and this checkout. A budget given as a ratio to an earlier release is then measured in
 * one run, whatever the machine.
 *
 * BENCH_BASELINE: the commit to compare with (default below), `off` to skip it, or a folder
 * already holding dist/, dist-server/ and dist-bench/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

/** The release the speed budgets are set against. */
export const DEFAULT_BASELINE = 'be236b9';

const BUILDS = ['dist/index.html', 'dist-server/index.js', 'dist-bench/lists.html'];
const isBuilt = (dir) => BUILDS.every((path) => existsSync(join(dir, path)));

function run(cmd, args, cwd) {
  try {
    execFileSync(cmd, args, { cwd, stdio: 'pipe' });
  } catch (err) {
    throw new Error(`${cmd} ${args.join(' ')} in ${cwd} failed:\n${String(err.stderr).slice(-4000)}`);
  }
}

/**
 * This checkout's packages, each linked rather than the folder, so the build's caches (.vite)
 * stay the folder's own. The earlier release's packages are a subset of ours; where its build
 * needs one we lack, `npm ci` installs its own.
 */
function linkPackages(dir) {
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(join(ROOT, 'node_modules')))
    if (!entry.startsWith('.vite') && entry !== '.cache')
      symlinkSync(join(ROOT, 'node_modules', entry), join(dir, 'node_modules', entry));
}

function buildAll(dir) {
  run('npm', ['run', 'build:app'], dir);
  run('npm', ['run', 'build:server'], dir);
  run('npx', ['vite', 'build', '--config', 'vite.bench.config.ts', '--logLevel', 'warn'], dir);
}

/**
 * `commit` built in a temp folder (kept between runs: a second bench reuses it). Returns
 * `{ dir, commit }`, or `{ why }` when it cannot be had (no git history, a failed build).
 */
export function prepareBuildOf(commit) {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  let full;
  try {
    full = git('rev-parse', '--verify', `${commit}^{commit}`);
  } catch (err) {
    return { why: `${commit} is not in this checkout's history (${err.message.split('\n')[0]})` };
  }
  const dir = join(tmpdir(), `textbook-admin-${full.slice(0, 12)}`);
  if (isBuilt(dir)) return { dir, commit: full };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run('sh', ['-c', `git -C "${ROOT}" archive ${full} | tar -x -C "${dir}"`], dir);
  linkPackages(dir);
  try {
    buildAll(dir);
  } catch {
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
    run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
    buildAll(dir);
  }
  return isBuilt(dir) ? { dir, commit: full } : { why: `its build in ${dir} is incomplete` };
}

/**
 * The builds to run alternately: the baseline first (when there is one), then this checkout.
 * Each is `{ label, root }`, `root` holding that build's dist/, dist-server/ and dist-bench/.
 */
export function buildsToCompare() {
  const given = process.env.BENCH_BASELINE ?? DEFAULT_BASELINE;
  const mine = { label: 'this build', root: ROOT };
  if (given === 'off') return [mine];
  if (existsSync(given)) {
    if (isBuilt(given)) return [{ label: `baseline (${given})`, root: resolve(given) }, mine];
    console.log(`Baseline ${given}: skipped, it lacks one of ${BUILDS.join(', ')}`);
    return [mine];
  }
  const built = prepareBuildOf(given);
  if (built.why) {
    console.log(`Baseline ${given}: skipped, ${built.why}`);
    return [mine];
  }
  return [{ label: built.commit.slice(0, 7), root: built.dir }, mine];
}
