// Prints the gzip size of the JavaScript and CSS the first screen needs: the entry chunk and
// everything it imports statically (dynamic imports load on demand and are listed apart).
// Reads dist/.vite/manifest.json, so run `npm run build:app` first.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'));
const gz = (file) => gzipSync(readFileSync(`dist/${file}`), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const initial = new Set();
const css = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || initial.has(chunk.file)) return;
  initial.add(chunk.file);
  for (const c of chunk.css ?? []) css.add(c);
  for (const dep of chunk.imports ?? []) visit(dep);
};
visit(entryKey);

const lazy = Object.values(manifest)
  .map((c) => c.file)
  .filter((f) => f.endsWith('.js') && !initial.has(f));
const sum = (files) => [...files].reduce((s, f) => s + gz(f), 0);

const result = {
  initialJsGzip: sum(initial),
  initialCssGzip: sum(css),
  lazyJsGzip: sum(lazy),
};
console.log(
  'Initial JavaScript (entry + static imports), gzip:',
  kb(result.initialJsGzip),
  '(budget 140 KB)',
);
for (const f of initial) console.log('  ', f, kb(gz(f)));
console.log('CSS, gzip:', kb(result.initialCssGzip), '(budget 15 KB)');
console.log('Loaded on demand, gzip:', kb(result.lazyJsGzip));
for (const f of lazy) console.log('  ', f, kb(gz(f)));
if (process.argv.includes('--json')) console.log(JSON.stringify(result));
