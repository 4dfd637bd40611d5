/**
 * Where a text stands in a file of this repository, so that a test pinning a catalogue (the
 * menus, the local tables, the PHP API's entities) can tell a newcomer the file and line to
 * change, not only that two lists differ.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../..');

/** The 1-based number of the first line of `file` (relative to the repository) holding `text`. */
export function lineOf(file: string, text: string): number | undefined {
  const at = readFileSync(join(REPO, file), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text));
  return at < 0 ? undefined : at + 1;
}

/** `file:line` of the first line holding `text`, or the file alone when no line holds it. */
export function placeOf(file: string, text: string): string {
  const line = lineOf(file, text);
  return line === undefined ? file : `${file}:${line}`;
}

/** The TypeScript files under `folder` (relative to the repository), relative paths, sorted. */
export function sourceFiles(folder: string): string[] {
  return (readdirSync(join(REPO, folder), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') || f.endsWith('.tsx'))
    .map((f) => relative(REPO, join(REPO, folder, f)))
    .sort();
}

/** The description file declaring entity `name` (`name: 'board'`), where a newcomer edits it. */
export function descriptionFileOf(name: string): string {
  const declared = `name: '${name}'`;
  const file = sourceFiles('src/contract').find((f) => lineOf(f, declared) !== undefined);
  return file ? placeOf(file, declared) : `its description (${declared})`;
}
