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

const HINT = '//# allFunctionsCalledOnLoad\n';

interface ChunkLike {
  type: 'chunk' | 'asset';
  isEntry?: boolean;
  facadeModuleId?: string | null;
  imports?: string[];
  code?: string;
}

export function compileHints(startChunk: string): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    // After Vite's own rewrites (its preload map goes at the head of a chunk with imports()).
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = bundle as unknown as Record<string, ChunkLike>;
        const marked = new Set<string>();
        const visit = (file: string) => {
          const chunk = chunks[file];
          if (chunk?.type !== 'chunk' || marked.has(file)) return;
          marked.add(file);
          for (const dep of chunk.imports ?? []) visit(dep);
        };
        for (const [file, chunk] of Object.entries(chunks))
          if (chunk.type === 'chunk' && (chunk.isEntry || chunk.facadeModuleId?.endsWith(startChunk)))
            visit(file);
        for (const file of marked) chunks[file].code = HINT + chunks[file].code;
      },
    },
  };
}
