// The gzip size of the JavaScript and CSS the first screen needs: the entry chunk and
// everything it imports statically, and the classic scripts index.html loads or holds (dynamic imports load on demand and are listed apart).
// Reads dist/.vite/manifest.json, so build first (`npm run build:app`). Run directly it
// prints the figures; tests/browser/bundle-budget.test.ts holds the budget with it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET = { initialJsGzip: 140 * 1024, cssGzip: 15 * 1024 };

export function measureBundle(dist = 'dist') {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
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
  // Classic scripts index.html loads beside the entry, and those it holds inline (the start
  // scripts, scripts/start-preload-plugin.ts): not in the manifest, run on every first load.
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  for (const [, src] of html.matchAll(/<script(?![^>]*type="module")[^>]*\ssrc="\/([^"]+)"/g))
    initial.add(src);
  // Inline scripts travel compressed with the page: what they add to its gzip.
  const gzText = (text) => gzipSync(text, { level: 9 }).length;
  const inline = {
    file: 'index.html: its inline scripts',
    gzip: gzText(html) - gzText(html.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>')),
  };
  const lazy = Object.values(manifest)
    .map((c) => c.file)
    .filter((f) => f.endsWith('.js') && !initial.has(f));
  const sized = (files) => [...files].map((file) => ({ file, gzip: gz(file) }));
  const sum = (list) => list.reduce((s, f) => s + f.gzip, 0);
  const initialFiles = [...sized(initial), inline];
  const lazyFiles = sized(lazy);
  return {
    initialJsGzip: sum(initialFiles),
    cssGzip: sum(sized(css)),
    lazyJsGzip: sum(lazyFiles),
    initialFiles,
    lazyFiles,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const m = measureBundle();
  console.log('Initial JavaScript (entry + static imports), gzip:', kb(m.initialJsGzip), '(budget 140 KB)');
  for (const f of m.initialFiles) console.log('  ', f.file, kb(f.gzip));
  console.log('CSS, gzip:', kb(m.cssGzip), '(budget 15 KB)');
  console.log('Loaded on demand, gzip:', kb(m.lazyJsGzip));
  for (const f of m.lazyFiles) console.log('  ', f.file, kb(f.gzip));
}
