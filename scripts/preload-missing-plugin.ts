/**
 * A Vite plugin that leaves out of a dynamic import's preload list the chunks its host's own
 * static graph holds. They were loaded before the host ran, so preloading them again fetches
 * nothing, while each name is code the host carries: the entry's list named the first load's
 * chunks again, a fifth of a kilobyte of the first load's budget (gzip).
 */
import type { Plugin } from 'vite';
import { type Bundle, staticGraph } from './chunk-graph';

export function preloadMissingOnly(): Plugin {
  let bundle: Bundle | null = null;
  const loadedWith = new Map<string, Set<string>>();
  /** The chunks loaded before `host` runs: its static graph. */
  const loadedBefore = (host: string, output: Bundle) => {
    let loaded = loadedWith.get(host);
    if (!loaded) {
      loaded = staticGraph(output, host);
      loadedWith.set(host, loaded);
    }
    return loaded;
  };
  return {
    name: 'preload-missing-only',
    apply: 'build',
    config: () => ({
      build: {
        modulePreload: {
          resolveDependencies: (_file, deps, { hostId, hostType }) => {
            if (hostType !== 'js' || !bundle) return deps;
            const loaded = loadedBefore(hostId, bundle);
            return deps.filter((dep) => !loaded.has(dep));
          },
        },
      },
    }),
    // Before Vite's own generateBundle, which asks for the lists: the chunks are all known.
    generateBundle: {
      order: 'pre',
      handler(_options, output) {
        bundle = output as unknown as Bundle;
        loadedWith.clear();
      },
    },
  };
}
