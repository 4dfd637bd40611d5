/**
 * The builds a bench reads, each with the command that makes it. A bench started without one
 * says which is missing and how to make it, instead of waiting for a page the server cannot
 * serve (`npm run bench` makes all three, and removes dist-bench/ when it ends).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

const HOW = {
  dist: 'npm run build:app',
  'dist-server': 'npm run build:server',
  'dist-bench': 'npx vite build --config vite.bench.config.ts',
};

/** Throws, naming the command, for the first of `paths` (relative to the repository) not built. */
export function needBuilt(...paths) {
  for (const path of paths) {
    if (existsSync(join(ROOT, path))) continue;
    const how = HOW[path.split('/')[0]];
    throw new Error(`${path} missing: build it first${how ? ` (${how})` : ''}`);
  }
}
