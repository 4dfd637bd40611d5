/**
 * Security headers on the app and the API: CSP, nosniff, Referrer-Policy,
 * X-Frame-Options, and HSTS only for requests that came over HTTPS, which behind a proxy is
 * believed only when TRUST_PROXY names it. Chromium running the built app under this policy:
 * tests/browser/csp.test.ts.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originOf, TIPTAP_STYLE_HASH } from '../../../server/http/headers';
import { classEntity } from '../../../src/contract/entities';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';

/** API replies are JSON, never a page: the policy word for word. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

let staticDir: string;
let scriptedDir: string;
let server: TestServer;
let proxied: TestServer;

/** The inline scripts of the second build's index.html (the start scripts, as the build writes them). */
const INLINE = ['(()=>{self.a=1})();', 'document.title="x"'];

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>App</title>');
  scriptedDir = await mkdtemp(join(tmpdir(), 'static-'));
  await writeFile(
    join(scriptedDir, 'index.html'),
    `<!doctype html><head><script>${INLINE[0]}</script><script type="module" src="/a.js"></script>` +
      `<script src="/b.js"></script></head><body><div id="root"></div><script>${INLINE[1]}</script></body>`,
  );
  [server, proxied] = await Promise.all([
    startTestServer({ staticDir }),
    startTestServer({
      staticDir: scriptedDir,
      settings: { trustProxy: 'loopback', apiOrigin: 'https://api.example.org' },
    }),
  ]);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await proxied?.close();
  await rm(staticDir, { recursive: true, force: true });
  await rm(scriptedDir, { recursive: true, force: true });
});

const directives = (policy: string | null) =>
  new Map(
    (policy ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([k, ...v]) => [k, v]),
  );

describe("the app's Content-Security-Policy", () => {
  it('is strict: own scripts only, no plugins, no framing, no foreign base', async () => {
    const res = await fetch(`${server.url}/classes`);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'blob:', 'data:']);
    expect(csp.get('worker-src')).toEqual(["'self'"]);
    // Styles: our stylesheet and TipTap's one <style>; inline style ATTRIBUTES for its
    // colour and alignment marks, but no inline <style> of any other content.
    expect(csp.get('style-src')).toEqual(["'self'", `'${TIPTAP_STYLE_HASH}'`]);
    expect(csp.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
    expect([...csp.values()].flat().filter((v) => v.includes('unsafe') && v !== "'unsafe-inline'")).toEqual(
      [],
    );
  });

  it("allows exactly the built index.html's inline scripts, by their hashes", async () => {
    const csp = directives((await fetch(`${proxied.url}/students`)).headers.get('content-security-policy'));
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp.get('script-src')).toEqual(["'self'", ...INLINE.map(hash)]);
  });

  it('allows the API origin for connections and images when the app was built against another one', async () => {
    const csp = directives((await fetch(`${proxied.url}/`)).headers.get('content-security-policy'));
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://api.example.org']);
    expect(csp.get('img-src')).toEqual(["'self'", 'blob:', 'data:', 'https://api.example.org']);
    expect(originOf('https://api.example.org/admin/fullmarks-server')).toBe('https://api.example.org');
    expect(originOf('/api')).toBeUndefined();
    expect((await fetch(`${server.url}/`)).headers.get('content-security-policy')).not.toContain('example');
  });

  it('allows exactly the <style> TipTap injects (its hash, recomputed from the installed @tiptap/core)', async () => {
    const require = createRequire(import.meta.url);
    const core = await readFile(require.resolve('@tiptap/core'), 'utf8');
    const style = /const style = `([^`]*)`;/.exec(core)?.[1];
    expect(style, '@tiptap/core no longer holds its CSS as `const style`: update this test').toBeDefined();
    const hash = `sha256-${createHash('sha256').update(style!).digest('base64')}`;
    expect(hash, 'TipTap changed its injected CSS: set TIPTAP_STYLE_HASH in server/http/headers.ts').toBe(
      TIPTAP_STYLE_HASH,
    );
  });
});

describe('headers on every reply', () => {
  const paths = ['/', '/classes', '/api/Nope/nothing.php', `/api/${classEntity.api.list}`];

  it('carry nosniff, a referrer policy and no framing; API replies a deny-all policy', async () => {
    const cookie = await signIn(server.apiRoot);
    for (const path of paths) {
      const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('same-origin');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      if (path.startsWith('/api/')) expect(res.headers.get('content-security-policy'), path).toBe(API_POLICY);
    }
    const refused = await api(server.apiRoot).post('Admin_access/login.php', {
      username: 'x',
      password: 'y',
    });
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    expect(refused.headers.get('content-security-policy')).toBe(API_POLICY);
  });

  it('send HSTS only when the request came over HTTPS through a trusted proxy', async () => {
    const https = { 'X-Forwarded-Proto': 'https' };
    expect((await fetch(`${server.url}/`)).headers.get('strict-transport-security')).toBeNull();
    // Not believed: this server trusts no proxy.
    expect(
      (await fetch(`${server.url}/`, { headers: https })).headers.get('strict-transport-security'),
    ).toBeNull();
    expect((await fetch(`${proxied.url}/`)).headers.get('strict-transport-security')).toBeNull();
    for (const path of ['/', '/api/Nope/x.php'])
      expect(
        (await fetch(`${proxied.url}${path}`, { headers: https })).headers.get('strict-transport-security'),
      ).toBe('max-age=31536000');
  });
});
