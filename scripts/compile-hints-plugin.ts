/**
 * A Vite plugin that marks the chunks a start runs (the entry and what it imports statically;
 * the list screens' chunk, `startChunk`, and what it imports) with V8's explicit compile hint,
 * the magic comment `//# allFunctionsCalledOnLoad`: Chromium then compiles every function of
 * such a script while streaming it, off the main thread, instead of each function on the main
 * thread at its first call. Those chunks' functions nearly all run at start; the scripts come
 * from the service worker's precache, which gave module scripts no code cache here (an
 * offline cold start compiled ~170 ms of functions on the main thread, unthrottled). Browsers
 * without the feature read a comment.
 */
import type { Plugin } from 'vite';
import { type Bundle, startFiles, staticGraph } from './chunk-graph';

const HINT = '//# allFunctionsCalledOnLoad\n';

export function compileHints(startChunk: string): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    // After Vite's own rewrites (its preload map goes at the head of a chunk with imports()).
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = bundle as unknown as Bundle;
        const marked = new Set<string>();
        const { entry, start } = startFiles(chunks, startChunk);
        for (const file of [entry, start]) if (file) staticGraph(chunks, file, marked);
        for (const file of marked) chunks[file].code = HINT + chunks[file].code;
      },
    },
  };
}
