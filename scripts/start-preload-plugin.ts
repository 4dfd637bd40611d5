/**
 * A Vite plugin that lets a start onto an entity's screen (a list reopened offline, a
 * bookmark) fetch that screen's chunks beside the first load's, not after it. Without it the
 * router asks for the list screens' chunk (`startChunk`) only once the whole entry has loaded
 * and run, and the chunk and its imports come in a second round through the service worker:
 * their requests start only after the entry's own have finished, a wait the start pays in
 * full.
 *
 * The build writes two small classic scripts inline in index.html, so that neither waits for a
 * request of its own (offline, each request waits its turn at the service worker). The first,
 * first in the body, reads the start snapshot and puts its picture where #root will be in the
 * same task, so that no other task (a blank frame, a module's compile) comes between them: it
 * waits for the stylesheet before it, which the first paint waits for anyway, and the page's
 * first frame paints the picture. The app's modules are preloaded after it (placeScripts), and
 * the second script, last in the body, starts the app's entry, after the picture's frame when
 * there is one. The server allows both by their hashes
 * (server/http/inline-scripts.ts). For a signed-in start on an entity's path (the app's own test,
 * src/app/start-route.ts), the second also loads `assets/start-preload-<hash>.js`, which adds a
 * `<link rel="modulepreload">` for each chunk of the list screens' static graph that the
 * entry's graph does not hold (index.html preloads those already). Any other start (sign-in,
 * the dashboard) fetches nothing more.
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import {
  NOT_ENTITY_PATH,
  SIGNED_IN_FLAG,
  START_SNAPSHOT_ID,
  START_SNAPSHOT_MAX_MS,
  START_SNAPSHOT_PREFIX,
} from '../src/app/start-route';
import { SNAPSHOTS_STALE_COOKIE } from '../src/sync/sync-settings';
import { type Bundle, startFiles, staticGraph } from './chunk-graph';

/** The chunks a start on an entity's screen needs that the entry's graph does not hold. */
export function startOnlyChunks(bundle: Bundle, startChunk: string): string[] {
  const { entry, start } = startFiles(bundle, startChunk);
  if (!entry || !start) return [];
  const loaded = staticGraph(bundle, entry);
  return [...staticGraph(bundle, start)].filter((f) => !loaded.has(f));
}

/**
 * The preload script: modulepreload links for `files`. The names go without the folder and
 * extension they share.
 */
export function preloadScript(files: readonly string[]): string {
  const dir = files.every((f) => f.startsWith('assets/')) ? 'assets/' : '';
  const ext = files.every((f) => f.endsWith('.js')) ? '.js' : '';
  const names = files.map((f) => f.slice(dir.length, f.length - ext.length));
  return `for(const f of ${JSON.stringify(names)}){const l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=${JSON.stringify(`/${dir}`)}+f+${JSON.stringify(ext)};document.head.appendChild(l)}\n`;
}

/** Where the start script leaves the picture, and the preload's loader, for the app's script. */
const PICTURE = '__startSnapshot';
const PRELOAD = '__startPreload';

/**
 * The start script, first in the body of every first load: for a start on an entity's screen,
 * it leaves the body's last script a way to load the preload script `preloadFile` (apart, so
 * that sign-in and the dashboard do not fetch its list of names), and puts the picture of the
 * start snapshot of the address before #root if one was kept at this width
 * (src/app/start-snapshot.ts; none while the service worker's cookie says the snapshots may be
 * old), inert and hidden from assistive technology. The app takes the picture down once its own
 * screen has painted; whatever happens, it goes after a few seconds.
 */
export function startScript(preloadFile: string): string {
  const preload = `self.${PRELOAD}=()=>{const s=D.createElement("script");s.src=${JSON.stringify(`/${preloadFile}`)};D.head.append(s)}`;
  const placed = `D.currentScript.after(d);self.${PICTURE}=d;setTimeout(()=>{d.remove();delete self.${PICTURE}},${START_SNAPSHOT_MAX_MS})`;
  const picture = `const h=L.getItem(${JSON.stringify(START_SNAPSHOT_PREFIX)}+location.pathname+location.search);if(!h||D.cookie.includes(${JSON.stringify(`${SNAPSHOTS_STALE_COOKIE}=`)}))return;const w=h.indexOf(" ");if(h.slice(0,w)!=innerWidth)return;const d=D.createElement("div");d.id=${JSON.stringify(START_SNAPSHOT_ID)};d.inert=1;d.ariaHidden="true";d.innerHTML=h.slice(w+1);${placed}`;
  return `(()=>{const D=document,L=localStorage;if(L.getItem(${JSON.stringify(SIGNED_IN_FLAG)})!=="true"||${NOT_ENTITY_PATH}.test(location.pathname))return;${preload};${picture}})();\n`;
}

/**
 * The app's script, last in the body: starts the app (its entry module `entry`, preloaded from
 * the head) and the preload script (when the start script left one): with a picture, both once
 * the picture's frame is out (run first, they held that frame up to their end); else the app
 * at once and the preload after the first frame (its links cost the main thread a moment).
 */
export function appScript(entry: string): string {
  const start = `e=()=>{const s=document.createElement("script");s.type="module";s.crossOrigin="";s.src=${JSON.stringify(entry)};document.head.append(s)}`;
  const preload = `p=self.${PRELOAD}||(()=>{})`;
  const later = (run: string) => `requestAnimationFrame(()=>setTimeout(${run}))`;
  return `{const ${start},${preload};self.${PICTURE}?${later('()=>{p();e()}')}:(e(),${later('p')})}\n`;
}

/** The entry's module script as Vite writes it into index.html. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;

/** Vite's preload links of the entry's imports. */
const MODULE_PRELOADS = /\s*<link rel="modulepreload"[^>]*>/g;

/**
 * index.html with the start script first in the body (the picture goes where #root will be),
 * and the app's script last, after the entry's preload and its imports'. The preload scanner
 * fetches those from anywhere in the page as early; placed after the picture, their modules
 * compile after it (the parser creates them there), not between the stylesheet and the
 * picture.
 */
export function placeScripts(html: string, entry: string, start: string, app: string): string {
  const preloads = [
    `<link rel="modulepreload" crossorigin href="${entry}">`,
    ...(html.match(MODULE_PRELOADS) ?? []),
  ].map((link) => link.trim());
  return html
    .replace(ENTRY_SCRIPT, '')
    .replace(MODULE_PRELOADS, '')
    .replace(/<body>(\s*)/, (_m, space: string) => `<body>${space}<script>${start}</script>${space}`)
    .replace(
      /(\s*)<\/body>/,
      (_m, space: string) =>
        [...preloads, `<script>${app}</script>`].map((line) => `${space}  ${line}`).join('') +
        `${space}</body>`,
    );
}

/** A build file named by its content, as Vite names the others. */
const hashed = (name: string, source: string) =>
  `assets/${name}-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;

export function startPreload(startChunk: string): Plugin {
  return {
    name: 'start-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, output) {
        const bundle = output as unknown as Bundle;
        const html = bundle['index.html'];
        if (html?.type !== 'asset') return;
        const preload = preloadScript(startOnlyChunks(bundle, startChunk));
        const preloadFile = hashed('start-preload', preload);
        this.emitFile({ type: 'asset', fileName: preloadFile, source: preload });
        const entry = String(html.source).match(ENTRY_SCRIPT)?.[1];
        if (!entry) throw new Error("index.html has no entry module script to start from the app's script");
        const start = startScript(preloadFile).trim();
        const app = appScript(entry).trim();
        html.source = placeScripts(String(html.source), entry, start, app);
      },
    },
  };
}
