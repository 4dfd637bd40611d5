/**
 * The HTTP client for the legacy API and our extensions. It never throws for an HTTP
 * status: every call ends in one of three outcomes that replay and pull classify
 * (design brief §3 rule 4): a JSON reply with its status, no usable reply (network
 * error or timeout), or a reply that is not JSON.
 */
import ky from 'ky';
import { type Envelope, IDEMPOTENCY_HEADER } from '../../contract/wire';
import { parseJsonInSlices, readText } from './sliced-json';

export type Query = Record<string, string | number | undefined>;

export interface RequestOptions {
  method: 'GET' | 'POST';
  query?: Query;
  json?: unknown;
  form?: FormData;
  idempotencyKey?: string;
  /** Further headers of this request (the audit trail's device and time: sync/audit/audit-headers.ts). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export type ApiOutcome =
  | { kind: 'reply'; status: number; body: Envelope; replayed: boolean; retryAfterMs?: number }
  | { kind: 'unreachable'; error: string }
  | { kind: 'not-json'; status: number; retryAfterMs?: number };

/** A reference list's reply: a bare JSON list (geography), or why there is none. */
export type ListOutcome =
  | { kind: 'list'; items: unknown[] }
  | { kind: 'unreachable'; error: string }
  | { kind: 'refused'; status: number };

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3), in ms from now. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface ApiClient {
  readonly root: string;
  request(path: string, options: RequestOptions): Promise<ApiOutcome>;
  /** GET of a bare JSON list (no envelope), for read-only reference lists. */
  getList(path: string): Promise<ListOutcome>;
  /**
   * The same transport for protocols other than the legacy API's (resumable uploads): fetch
   * with the session cookie. One per client, so it also identifies the client; a wrapper
   * without it makes files go inside their record's request.
   */
  readonly fetch?: typeof fetch;
  /**
   * Whether an upload's chunks may go through XMLHttpRequest, for progress by the byte: in the
   * sync worker, on its own fetch (a test's fetch in Node keeps its own cookie jar).
   */
  readonly progressiveUploads?: boolean;
}

export interface ApiConfig {
  /** API root: base URL plus the server's path prefix, e.g. '/api' or 'https://host/admin/fullmarks-server'. */
  root: string;
  /** For tests in Node: a fetch that keeps the session cookie. */
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Headers on every request (the external geography service's key). */
  headers?: Record<string, string>;
  /** 'omit' for a third-party service that must not see our session cookie. Default 'include'. */
  credentials?: RequestCredentials;
}

function absoluteRoot(root: string): string {
  const trimmed = root.replace(/\/+$/, '');
  if (/^https?:\/\//.test(trimmed)) return trimmed;
  // A path-only root is relative to the page's (or worker's) origin.
  return new URL(trimmed, globalThis.location?.href ?? 'http://localhost/').href.replace(/\/+$/, '');
}

export function createApi(config: ApiConfig): ApiClient {
  const root = absoluteRoot(config.root);
  const http = ky.create({
    throwHttpErrors: false,
    retry: 0,
    timeout: config.timeoutMs ?? 15_000,
    credentials: config.credentials ?? 'include',
    headers: config.headers,
    fetch: config.fetch,
  });

  const transport = config.fetch ?? globalThis.fetch;
  return {
    root,
    fetch: (input, init) => transport(input, { credentials: 'include', ...init }),
    progressiveUploads: !config.fetch && typeof XMLHttpRequest === 'function',
    async request(path, options) {
      const url = new URL(`${root}/${path}`);
      for (const [k, v] of Object.entries(options.query ?? {})) {
        if (v !== undefined) url.searchParams.set(k, String(v));
      }
      const headers: Record<string, string> = { ...options.headers };
      if (options.idempotencyKey) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey;
      let response: Response;
      try {
        response = await http(url, {
          method: options.method,
          json: options.json,
          body: options.form,
          headers,
          signal: options.signal,
        });
      } catch (error) {
        return { kind: 'unreachable', error: error instanceof Error ? error.message : String(error) };
      }
      const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
      let body: unknown;
      try {
        // A big reply (a page of the first sync) in tasks of bounded time, not one long parse.
        body = await parseJsonInSlices(await readText(response));
      } catch {
        return { kind: 'not-json', status: response.status, retryAfterMs };
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return { kind: 'not-json', status: response.status, retryAfterMs };
      }
      return {
        kind: 'reply',
        status: response.status,
        body: body as Envelope,
        replayed: response.headers.has('Idempotent-Replayed'),
        retryAfterMs,
      };
    },
    async getList(path) {
      let response: Response;
      try {
        response = await http(new URL(`${root}/${path}`), { method: 'GET' });
      } catch (error) {
        return { kind: 'unreachable', error: error instanceof Error ? error.message : String(error) };
      }
      const body: unknown = await response.json().catch(() => null);
      if (response.ok && Array.isArray(body)) return { kind: 'list', items: body };
      return { kind: 'refused', status: response.status };
    },
  };
}
