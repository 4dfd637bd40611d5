// Runs before the tests: the browser tests drive Debian's Chromium (no browser download is
// possible here). Installs it with apt-get when it is missing and we are root.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(`Chromium is missing at ${path}. Install Debian's package: sudo apt-get install -y chromium`);
  process.exit(1);
}
console.log("Installing Debian's chromium for the browser tests…");
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execSync('apt-get update -qq && apt-get install -y -qq chromium', { stdio: 'inherit', env });
