/**
 * Folders that show the design: no folder under src/, server/ or tests/ holds more than MAX entries
 * (files and folders). A folder that grows past it is a group of things that wants a name:
 * give the group a folder of its own. Run by `npm run lint`; exits 1 and names each folder over.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const MAX = 30;
const ROOTS = ['src', 'server', 'tests'];

/** Every folder under `dir`, itself included, with its number of entries. */
function* folders(dir) {
  const entries = readdirSync(dir, { withFileTypes: true });
  yield [dir, entries.length];
  for (const e of entries) if (e.isDirectory()) yield* folders(join(dir, e.name));
}

const problems = [];
for (const root of ROOTS) {
  for (const [dir, size] of folders(root)) {
    if (size > MAX) problems.push(`${dir}: ${size} entries (at most ${MAX})`);
  }
}

if (problems.length > 0) {
  console.error(
    `Folders of more than ${MAX} entries (scripts/lint/folder-size.mjs):\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`✔ no folder under ${ROOTS.join('/ or ')}/ holds more than ${MAX} entries`);
