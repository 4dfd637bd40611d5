/**
 * A Vite plugin that lets a start onto an entity's screen (a list reopened offline, a
 * bookmark) fetch that screen's chunks beside the first load's, not after it. Without it the
 * router asks for the list screens' chunk (`startChunk`) only once the whole entry has loaded
 * and run, and the chunk and its imports come in a second round through the service worker:
 * their requests start only after the entry's own have finished, a wait the start pays in
 * full.
 *
 * The build writes a small classic script (`assets/start-<hash>.js`, loaded from index.html's
 * head before the entry: parser-blocking, so that it runs while the document still loads and
 * can paint the start snapshot before the modules run; the preload scanner fetches the entry
 * meanwhile) that, for a signed-in start on an entity's path (the app's own test,
 * src/app/start-route.ts), loads a second one (`assets/start-preload-<hash>.js`) adding a
 * `<link rel="modulepreload">` for each chunk of the list screens' static graph that the
 * entry's graph does not hold (index.html preloads those already). Any other start (sign-in,
 * the dashboard) fetches only the first, a few hundred bytes.
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

/**
 * The start script, on every first load: for a start on an entity's screen, it loads the
 * preload script `preloadFile` (apart, so that sign-in and the dashboard do not fetch its list
 * of names) and paints the start snapshot of the address if one was kept
 * (src/app/start-snapshot.ts; none while the service worker's cookie says the snapshots may be
 * old) over #root once the body is parsed (readyState 'interactive': the script blocks the
 * parser in the head, so the document is always still loading when it runs),
 * before the app's modules run (they wait for the parse). The app takes it down once its own
 * screen has painted; whatever happens, it goes after a few seconds.
 */
export function startScript(preloadFile: string): string {
  const preload = `const s=document.createElement("script");s.src=${JSON.stringify(`/${preloadFile}`)};document.head.appendChild(s)`;
  const snapshot = `const h=localStorage.getItem(${JSON.stringify(START_SNAPSHOT_PREFIX)}+location.pathname+location.search);h&&!document.cookie.includes(${JSON.stringify(`${SNAPSHOTS_STALE_COOKIE}=`)})&&document.addEventListener("readystatechange",()=>{document.getElementById("root").insertAdjacentHTML("beforebegin",'<div id=${START_SNAPSHOT_ID} inert aria-hidden=true>'+h+"</div>");setTimeout(()=>document.getElementById(${JSON.stringify(START_SNAPSHOT_ID)})?.remove(),${START_SNAPSHOT_MAX_MS})},{once:1})`;
  return `(()=>{if(localStorage.getItem(${JSON.stringify(SIGNED_IN_FLAG)})!=="true"||${NOT_ENTITY_PATH}.test(location.pathname))return;${preload};${snapshot}})();\n`;
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
        const source = startScript(preloadFile);
        const fileName = hashed('start', source);
        this.emitFile({ type: 'asset', fileName, source });
        // In the head before the entry's module script: fetched beside it, run before the body.
        html.source = String(html.source).replace(
          /(\s*)<script type="module"/,
          `$1<script src="/${fileName}"></script>$1<script type="module"`,
        );
      },
    },
  };
}
