/**
 * Security headers on every reply: the app's Content-Security-Policy on the app's files, a
 * deny-all policy on API replies (JSON is never a page), `Cache-Control: no-store` on API
 * replies, nosniff, a referrer policy, no framing, and HSTS when the request came over HTTPS
 * (server/http/client.ts decides that, TRUST_PROXY included). Hono's secureHeaders writes them,
 * with every header of its own beyond these turned off; a reply that brings its own policy
 * (uploads) keeps it.
 *
 * The app's policy allows what the built app does and nothing more:
 * - scripts, workers (the service worker), manifest, fonts: this origin only, plus the
 *   inline scripts of the built index.html, by their hashes (inline-scripts.ts);
 * - images: this origin, blob: (files chosen in a form are previewed from Blobs) and data:;
 * - connections: this origin, plus the API's when the app was built against another one;
 * - styles: this origin's stylesheet, plus ONE inline <style> element: the base CSS TipTap
 *   injects when the rich-text editor opens (allowed by its hash, TIPTAP_STYLE_HASH); and
 *   style ATTRIBUTES ('unsafe-inline' in style-src-attr only), because the editor's colour and
 *   text-align features write `style="color: …"` / `style="text-align: …"` into its DOM, which
 *   Chromium refuses under style-src 'self'. A style attribute can neither run script nor,
 *   with img-src and connect-src as they are, send anything anywhere.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from './env';

/**
 * sha256 of the <style data-tiptap-style> text of @tiptap/core (3.32 to 3.34).
 * tests/server/http/headers.test.ts recomputes it from the installed package: when TipTap changes
 * that text, the test fails and names the new hash.
 */
export const TIPTAP_STYLE_HASH = 'sha256-PlumsSlvJ7vvWzjqibGAYKq92O3y/4JTxWWsWJvyUYA=';

/** One year; without includeSubDomains, which would bind sibling sites we know nothing of. */
const HSTS = 'max-age=31536000';

type Policy = NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy'];

function appPolicy(apiOrigin: string | undefined, scriptHashes: readonly string[]): Policy {
  const api = apiOrigin ? [apiOrigin] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...scriptHashes],
    styleSrc: ["'self'", `'${TIPTAP_STYLE_HASH}'`],
    styleSrcAttr: ["'unsafe-inline'"],
    imgSrc: ["'self'", 'blob:', 'data:', ...api],
    connectSrc: ["'self'", ...api],
    workerSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/** API replies are JSON, never a page: nothing may load and nothing may frame them. */
const API_POLICY: Policy = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };

/** The headers of one kind of reply, with HSTS or without. */
const headersFor = (contentSecurityPolicy: Policy, https: boolean) =>
  secureHeaders({
    contentSecurityPolicy,
    xContentTypeOptions: 'nosniff',
    // Full URLs within the app; nothing at all to other sites (record ids are in our paths).
    referrerPolicy: 'same-origin',
    xFrameOptions: 'DENY',
    strictTransportSecurity: https ? HSTS : false,
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    removePoweredBy: false,
    // A header the handler set stays: uploads bring their own sandboxing policy.
    overwrite: false,
  });

export interface HeaderOptions {
  apiPrefix: string;
  /** The API's origin when the app was built against another one (VITE_API_ROOT). */
  apiOrigin?: string;
  /** Hashes of the built index.html's inline scripts (inline-scripts.ts). */
  scriptHashes?: readonly string[];
  /** Whether this request came over HTTPS (server/http/client.ts). */
  isHttps: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => boolean;
}

/** The origin of an absolute API root, or undefined for a path such as the default '/api'. */
export function originOf(apiRoot: string | undefined): string | undefined {
  if (!apiRoot || !/^https?:\/\//i.test(apiRoot)) return undefined;
  return new URL(apiRoot).origin;
}

export function securityHeaders(options: HeaderOptions): MiddlewareHandler<AppEnv> {
  const app = appPolicy(options.apiOrigin, options.scriptHashes ?? []);
  const forApp = [headersFor(app, false), headersFor(app, true)];
  const forApi = [headersFor(API_POLICY, false), headersFor(API_POLICY, true)];
  const isApi = (path: string) => path === options.apiPrefix || path.startsWith(`${options.apiPrefix}/`);
  return async (c, next) => {
    const api = isApi(c.req.path);
    await (api ? forApi : forApp)[options.isHttps(c) ? 1 : 0](c, next);
    // API replies are one administrator's data: no cache, the browser's or a proxy's, may keep
    // them. Uploaded files bring their own caching (uploads/serve.ts).
    if (api && !c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  };
}
