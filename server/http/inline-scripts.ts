/**
 * The hashes of the inline scripts in the built app's index.html, for the app's
 * Content-Security-Policy (headers.ts): the start script (scripts/start-preload-plugin.ts)
 * runs inline, before any request, and the policy allows exactly what the build wrote. Read
 * once, when the server starts: a build replaced under a running server keeps the hashes of
 * the one it started with, and its start script is refused (the app starts without its start
 * picture) until the server restarts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A CSP source allowing the inline script `text`. */
const hashSource = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** `'sha256-…'` sources, one per `<script>` without attributes in `html`. */
export function scriptHashesOf(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, text]) => hashSource(text ?? ''));
}

/** The hashes of staticDir's index.html; none when there is no built app. */
export function inlineScriptHashes(staticDir: string | undefined): string[] {
  if (!staticDir) return [];
  try {
    return scriptHashesOf(readFileSync(join(staticDir, 'index.html'), 'utf8'));
  } catch {
    return [];
  }
}
