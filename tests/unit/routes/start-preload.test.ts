/**
 * The scripts the build writes into index.html (scripts/start-preload-plugin.ts): the list
 * screens' chunks that the entry's graph lacks, preloaded only for a signed-in start on an
 * entity's path, and the same test of such a start as the app's (first-screen.ts); the start
 * picture built only from a snapshot kept at this width; the app started after its frame.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  appScript,
  placeScripts,
  preloadScript,
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
 * Runs the start script in a page at `path`, signed in or not, then the app's script (no
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
  runInNewContext(appScript('/assets/index-x.js'), page);
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

/**
 * Runs the start script on /students at `width` with `kept` as the address's snapshot; the
 * picture it built and placed after itself (before #root), and the timers it left.
 */
function pictureAt(width: number, kept: string | null, cookie = '') {
  const placed: unknown[] = [];
  const page: Record<string, unknown> = {
    innerWidth: width,
    localStorage: {
      getItem: (key: string) =>
        key === 'isAuthenticated' ? 'true' : key === 'startScreen:/students' ? kept : null,
    },
    location: { pathname: '/students', search: '' },
    setTimeout: () => undefined,
    document: {
      cookie,
      createElement: () => ({ innerHTML: '' }),
      head: { append: () => undefined },
      currentScript: { after: (el: unknown) => placed.push(el) },
    },
  };
  page.self = page;
  runInNewContext(startScript('assets/start-preload-x.js'), page);
  const picture = page.__startSnapshot as
    | { innerHTML: string; inert: unknown; ariaHidden: string }
    | undefined;
  expect(placed).toEqual(picture ? [picture] : []);
  return picture;
}

describe('the start picture', () => {
  it('is built from the snapshot kept at this width and placed where it runs, inert and hidden', () => {
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
 * Runs the app's script with or without a picture, after a start script that left the
 * preload's loader; what it did, and the frame callbacks it left.
 */
function appScriptRun(picture: object | undefined) {
  const did: string[] = [];
  const frames: (() => void)[] = [];
  const page: Record<string, unknown> = {
    __startSnapshot: picture,
    __startPreload: () => did.push('preload'),
    requestAnimationFrame: (run: () => void) => frames.push(run),
    setTimeout: (run: () => void, ms?: number) => (ms ? undefined : run()),
    document: {
      createElement: () => ({}),
      head: {
        append: (s: { type: string; src: string; crossOrigin: string }) =>
          did.push(`${s.type} ${s.src} crossOrigin="${s.crossOrigin}"`),
      },
    },
  };
  page.self = page;
  runInNewContext(appScript('/assets/index-x.js'), page);
  return { did, frames };
}

describe("the app's script", () => {
  it('starts the preload and the app only once the picture’s frame is out', () => {
    const { did, frames } = appScriptRun({});
    expect(did).toEqual([]);
    for (const frame of frames) frame();
    expect(did).toEqual(['preload', 'module /assets/index-x.js crossOrigin=""']);
  });

  it('starts the app at once without a picture, and the preload after the first frame', () => {
    const { did, frames } = appScriptRun(undefined);
    expect(did).toEqual(['module /assets/index-x.js crossOrigin=""']);
    for (const frame of frames) frame();
    expect(did).toEqual(['module /assets/index-x.js crossOrigin=""', 'preload']);
  });
});

describe('index.html as the build writes it', () => {
  const vite = [
    '<html><head><title>App</title>',
    '<script type="module" crossorigin src="/assets/index-x.js"></script>',
    '<link rel="modulepreload" crossorigin href="/assets/react-x.js">',
    '<link rel="stylesheet" crossorigin href="/assets/index-x.css">',
    '</head><body>',
    '<div id="root"></div>',
    '</body></html>',
  ].join('\n');

  it('puts the picture first in the body, and the modules after #root, the app started last', () => {
    const html = placeScripts(vite, '/assets/index-x.js', 'START', 'APP');
    const head = html.slice(0, html.indexOf('</head>'));
    const body = html.slice(html.indexOf('<body>') + '<body>'.length, html.indexOf('</body>'));
    // The head fetches only the stylesheet: nothing of the app's is made before the picture.
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index-x.css">');
    expect(head).not.toMatch(/modulepreload|<script/);
    expect(body.trim().split(/\s*\n\s*/)).toEqual([
      '<script>START</script>',
      '<div id="root"></div>',
      '<link rel="modulepreload" crossorigin href="/assets/index-x.js">',
      '<link rel="modulepreload" crossorigin href="/assets/react-x.js">',
      '<script>APP</script>',
    ]);
  });
});
