/**
 * The dynamic imports' preload lists (scripts/preload-missing-plugin.ts): a chunk the host's
 * static graph holds is left out (it ran before the host), every other dependency stays.
 */
import { describe, expect, it } from 'vitest';
import { preloadMissingOnly } from '../../../scripts/preload-missing-plugin';

const bundle = {
  'assets/index.js': { type: 'chunk' as const, isEntry: true, imports: ['assets/react.js', 'assets/db.js'] },
  'assets/react.js': { type: 'chunk' as const, imports: [] },
  'assets/db.js': { type: 'chunk' as const, imports: ['assets/runtime.js'] },
  'assets/runtime.js': { type: 'chunk' as const, imports: [] },
  'assets/list.js': { type: 'chunk' as const, imports: ['assets/table.js', 'assets/db.js'] },
  'assets/table.js': { type: 'chunk' as const, imports: ['assets/react.js'] },
};

type Resolve = (
  file: string,
  deps: string[],
  context: { hostId: string; hostType: 'html' | 'js' },
) => string[];

function plugin() {
  const made = preloadMissingOnly();
  const config = (made.config as () => { build: { modulePreload: { resolveDependencies: Resolve } } })();
  const generate = made.generateBundle as unknown as { handler: (o: unknown, b: unknown) => void };
  return {
    resolve: config.build.modulePreload.resolveDependencies,
    generate: () => generate.handler({}, bundle),
  };
}

describe('preload lists of dynamic imports', () => {
  it('leave out what the host loaded with itself, transitively, and keep the rest', () => {
    const { resolve, generate } = plugin();
    generate();
    const deps = [
      'assets/list.js',
      'assets/table.js',
      'assets/db.js',
      'assets/runtime.js',
      'assets/react.js',
    ];
    expect(resolve('assets/list.js', deps, { hostId: 'assets/index.js', hostType: 'js' })).toEqual([
      'assets/list.js',
      'assets/table.js',
    ]);
    // A host lower down holds less of the graph.
    expect(resolve('assets/list.js', deps, { hostId: 'assets/db.js', hostType: 'js' })).toEqual([
      'assets/list.js',
      'assets/table.js',
      'assets/react.js',
    ]);
  });

  it('keep every dependency for index.html, and before the chunks are known', () => {
    const { resolve, generate } = plugin();
    const deps = ['assets/list.js', 'assets/db.js'];
    expect(resolve('assets/list.js', deps, { hostId: 'assets/index.js', hostType: 'js' })).toEqual(deps);
    generate();
    expect(resolve('assets/list.js', deps, { hostId: 'index.html', hostType: 'html' })).toEqual(deps);
  });
});
