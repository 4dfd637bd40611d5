/**
 * The scripts the build writes into index.html (scripts/start-preload-plugin.ts): the list
 * screens' chunks that the entry's graph lacks, preloaded only for a signed-in start on an
 * entity's path, and the same test of such a start as the app's (first-screen.ts); the start
 * picture built only from a snapshot kept at this width; the app started after its frame.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  preloadScript,
  snapshotScript,
  startOnlyChunks,
  startScript,
} from '../../../scripts/start-preload-plugin';

const bundle = {
  'assets/index.js': {
    type: 'chunk' as const,
    isEntry: true,
    imports: ['assets/react.js', 'assets/router.js'],
  },
  'assets/react.js': { type: 'chunk' as const, imports: [] },
  'assets/router.js': { type: 'chunk' as const, imports: ['assets/react.js'] },
  'assets/entity-screen.js': {
    type: 'chunk' as const,
    facadeModuleId: '/app/src/routes/entity-screen.tsx',
    imports: ['assets/react.js', 'assets/index.js', 'assets/entities.js'],
  },
  'assets/entities.js': { type: 'chunk' as const, imports: ['assets/router.js', 'assets/rules.js'] },
  'assets/rules.js': { type: 'chunk' as const, imports: [] },
  'assets/login.js': { type: 'chunk' as const, imports: [] },
  'index.html': { type: 'asset' as const, source: '<html></html>' },
};

/**
 * Runs the start script in a page at `path`, signed in or not, then the body's script (no
 * picture), then the preload script if they loaded it; the links added.
 */
function run(path: string, signedIn: boolean, files: string[]) {
  const added: { rel: string; href: string; crossOrigin: string | null }[] = [];
  const loaded: string[] = [];
  const page: Record<string, unknown> = {
    localStorage: { getItem: (key: string) => (key === 'isAuthenticated' && signedIn ? 'true' : null) },
    location: { pathname: path, search: '' },
    requestAnimationFrame: (run: () => void) => run(),
    setTimeout: (run: () => void) => run(),
    document: {
      createElement: (tag: string) =>
        tag === 'script' ? { src: '' } : { rel: '', href: '', crossOrigin: null },
      head: {
        appendChild: (el: { src?: string } & (typeof added)[number]) =>
          el.src !== undefined ? loaded.push(el.src) : added.push(el),
        append: (el: { src?: string } & (typeof added)[number]) =>
          el.src !== undefined ? loaded.push(el.src) : added.push(el),
      },
    },
  };
  page.self = page;
  runInNewContext(startScript('assets/start-preload-x.js'), page);
  runInNewContext(snapshotScript('/assets/index-x.js'), page);
  for (const src of loaded.filter((s) => s !== '/assets/index-x.js')) {
    expect(src).toBe('/assets/start-preload-x.js');
    runInNewContext(preloadScript(files), page);
  }
  return added;
}

describe('the start script', () => {
  it('lists the start chunk and its imports that the entry does not load', () => {
    expect(startOnlyChunks(bundle, 'src/routes/entity-screen.tsx')).toEqual([
      'assets/entity-screen.js',
      'assets/entities.js',
      'assets/rules.js',
    ]);
    expect(startOnlyChunks(bundle, 'src/routes/missing.tsx')).toEqual([]);
  });

  it('preloads them for a signed-in start on an entity screen', () => {
    const files = ['assets/entity-screen.js', 'assets/entities.js'];
    expect(run('/students', true, files)).toEqual([
      { rel: 'modulepreload', href: '/assets/entity-screen.js', crossOrigin: '' },
      { rel: 'modulepreload', href: '/assets/entities.js', crossOrigin: '' },
    ]);
    expect(run('/editstudent/MTI', true, files)).toHaveLength(2);
    // Names outside the folder and extension most share keep their own.
    expect(run('/students', true, ['assets/a.js', 'other/b.mjs']).map((l) => l.href)).toEqual([
      '/assets/a.js',
      '/other/b.mjs',
    ]);
  });

  it('fetches nothing more at sign-in, on the dashboard, the outbox or the audit trail, or signed out', () => {
    const files = ['assets/entity-screen.js'];
    for (const path of ['/', '/login', '/homepage', '/outbox', '/audit'])
      expect(run(path, true, files)).toEqual([]);
    expect(run('/students', false, files)).toEqual([]);
  });
});

/** Runs the start script on /students at `width` with `kept` as the address's snapshot; the picture it built. */
function pictureAt(width: number, kept: string | null, cookie = '') {
  const page: Record<string, unknown> = {
    innerWidth: width,
    localStorage: {
      getItem: (key: string) =>
        key === 'isAuthenticated' ? 'true' : key === 'startScreen:/students' ? kept : null,
    },
    location: { pathname: '/students', search: '' },
    requestAnimationFrame: () => undefined,
    document: { cookie, createElement: () => ({ innerHTML: '' }), head: { append: () => undefined } },
  };
  page.self = page;
  runInNewContext(startScript('assets/start-preload-x.js'), page);
  return page.__startSnapshot as { innerHTML: string; inert: unknown; ariaHidden: string } | undefined;
}

describe('the start picture', () => {
  it('is built from the snapshot kept at this width, inert and hidden', () => {
    const picture = pictureAt(1024, '1024 <p class="list-foot">Showing 1 to 10</p>');
    expect(picture?.innerHTML).toBe('<p class="list-foot">Showing 1 to 10</p>');
    expect([picture?.inert, picture?.ariaHidden]).toEqual([1, 'true']);
  });

  it('is not built at another width (a tablet turned), without a snapshot, or when marked stale', () => {
    expect(pictureAt(768, '1024 <p>Showing 1 to 10</p>')).toBeUndefined();
    // A snapshot kept before pictures carried their width.
    expect(pictureAt(1024, '<p>Showing 1 to 10</p>')).toBeUndefined();
    expect(pictureAt(1024, null)).toBeUndefined();
    expect(pictureAt(1024, '1024 <p>x</p>', 'startScreenStale=1')).toBeUndefined();
  });
});

/**
 * Runs the body's script with or without a picture, after a start script that left the
 * preload's loader; what it did, and the frame callbacks it left.
 */
function bodyScriptRun(picture: object | undefined) {
  const did: string[] = [];
  const frames: (() => void)[] = [];
  const page: Record<string, unknown> = {
    __startSnapshot: picture,
    __startPreload: () => did.push('preload'),
    requestAnimationFrame: (run: () => void) => frames.push(run),
    setTimeout: (run: () => void, ms?: number) => (ms ? undefined : run()),
    document: {
      getElementById: () => ({ before: () => did.push('picture placed') }),
      createElement: () => ({}),
      head: {
        append: (s: { type: string; src: string; crossOrigin: string }) =>
          did.push(`${s.type} ${s.src} crossOrigin="${s.crossOrigin}"`),
      },
    },
  };
  page.self = page;
  runInNewContext(snapshotScript('/assets/index-x.js'), page);
  return { did, frames };
}

describe('the body script', () => {
  it('places the picture, and starts the preload and the app only once the picture’s frame is out', () => {
    const { did, frames } = bodyScriptRun({});
    expect(did).toEqual(['picture placed']);
    for (const frame of frames) frame();
    expect(did).toEqual(['picture placed', 'preload', 'module /assets/index-x.js crossOrigin=""']);
  });

  it('starts the app at once without a picture, and the preload after the first frame', () => {
    const { did, frames } = bodyScriptRun(undefined);
    expect(did).toEqual(['module /assets/index-x.js crossOrigin=""']);
    for (const frame of frames) frame();
    expect(did).toEqual(['module /assets/index-x.js crossOrigin=""', 'preload']);
  });
});
