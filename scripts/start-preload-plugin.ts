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
 * in the head before the stylesheet, reads the start snapshot and builds its picture while the
 * stylesheet loads; the second, last in the body, puts the picture before #root as soon as the
 * stylesheet is in (a script waits for the stylesheets before it, which the first paint waits
 * for anyway), without waiting for the end of the document (whose last bytes can wait behind
 * the entry's files), and then starts the app's entry, after the picture's frame when there is
 * one: index.html only preloads the entry. The server allows both by their hashes
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

/** Where the head script leaves the picture, and the preload's loader, for the body script. */
const PICTURE = '__startSnapshot';
const PRELOAD = '__startPreload';

/**
 * The start script, in the head of every first load: for a start on an entity's screen, it
 * leaves the body's script a way to load the preload script `preloadFile` (apart, so that
 * sign-in and the dashboard do not fetch its list of names), and builds the picture of the
 * start snapshot of the address if one was kept at this width (src/app/start-snapshot.ts; none
 * while the service worker's cookie says the snapshots may be old), inert and hidden from
 * assistive technology.
 */
export function startScript(preloadFile: string): string {
  const preload = `self.${PRELOAD}=()=>{const s=D.createElement("script");s.src=${JSON.stringify(`/${preloadFile}`)};D.head.append(s)}`;
  const picture = `const h=L.getItem(${JSON.stringify(START_SNAPSHOT_PREFIX)}+location.pathname+location.search);if(!h||D.cookie.includes(${JSON.stringify(`${SNAPSHOTS_STALE_COOKIE}=`)}))return;const w=h.indexOf(" ");if(h.slice(0,w)!=innerWidth)return;const d=D.createElement("div");d.id=${JSON.stringify(START_SNAPSHOT_ID)};d.inert=1;d.ariaHidden="true";d.innerHTML=h.slice(w+1);self.${PICTURE}=d`;
  return `(()=>{const D=document,L=localStorage;if(L.getItem(${JSON.stringify(SIGNED_IN_FLAG)})!=="true"||${NOT_ENTITY_PATH}.test(location.pathname))return;${preload};${picture}})();\n`;
}

/**
 * The snapshot script, last in the body: puts the picture the start script built before #root,
 * and starts the app (its entry module `entry`, preloaded from the head) and the preload script
 * (when the start script left one): with a picture, both once the picture's frame is out (run
 * first, they held that frame up to their end); else the app at once and the preload after the
 * first frame (its links cost the main thread a moment). The app takes the picture down once
 * its own screen has painted; whatever happens, it goes after a few seconds.
 */
export function snapshotScript(entry: string): string {
  const start = `e=()=>{const s=document.createElement("script");s.type="module";s.crossOrigin="";s.src=${JSON.stringify(entry)};document.head.append(s)}`;
  const preload = `p=self.${PRELOAD}||(()=>{})`;
  const later = (run: string) => `requestAnimationFrame(()=>setTimeout(${run}))`;
  const placed = `document.getElementById("root").before(d),setTimeout(()=>{d.remove();delete self.${PICTURE}},${START_SNAPSHOT_MAX_MS})`;
  return `{const d=self.${PICTURE},${start},${preload};d?(${placed},${later('()=>{p();e()}')}):(e(),${later('p')})}\n`;
}

/** The entry's module script as Vite writes it into index.html. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;

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
        if (!entry) throw new Error("index.html has no entry module script to start from the body's script");
        const start = startScript(preloadFile).trim();
        const snapshot = snapshotScript(entry).trim();
        html.source = String(html.source)
          // In the head before the stylesheet; the entry is fetched from there, run from the body.
          .replace(
            ENTRY_SCRIPT,
            `<script>${start}</script>\n    <link rel="modulepreload" crossorigin href="${entry}">`,
          )
          // Last in the body: #root is there when it runs.
          .replace(
            /(\s*)<\/body>/,
            (_m, space: string) => `${space}  <script>${snapshot}</script>${space}</body>`,
          );
      },
    },
  };
}
