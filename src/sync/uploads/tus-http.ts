/**
 * What tus-js-client needs from its platform, made of what runs everywhere the sync engine
 * runs (the sync worker, service worker, Node in tests): requests through the API client's fetch
 * (so the session cookie goes along, and a service worker, which has no XMLHttpRequest, can
 * upload too), and chunks cut from a Blob with `slice`, which reads nothing into memory.
 *
 * fetch reports no upload progress: where XMLHttpRequest exists (the sync worker), a chunk's PATCH goes
 * through it instead, so progress follows the bytes sent; elsewhere it moves chunk by chunk.
 */
import type { FileReader, FileSource, HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';

/** A chunk may take this long at 50 KB/s before the request counts as hung; others 15 s. */
const timeoutMs = (bytes: number) => 15_000 + Math.round(bytes / 50);

class FetchResponse implements HttpResponse {
  constructor(
    private readonly response: Response,
    private readonly body: string,
  ) {}
  getStatus() {
    return this.response.status;
  }
  getHeader(name: string) {
    return this.response.headers.get(name) ?? undefined;
  }
  getBody() {
    return this.body;
  }
  getUnderlyingObject() {
    return this.response;
  }
}

class FetchRequest implements HttpRequest {
  protected readonly headers: Record<string, string> = {};
  private readonly aborted = new AbortController();

  constructor(
    private readonly method: string,
    private readonly url: string,
    private readonly fetcher: typeof fetch,
  ) {}
  getMethod() {
    return this.method;
  }
  getURL() {
    return this.url;
  }
  setHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getHeader(name: string) {
    return this.headers[name];
  }
  setProgressHandler(_handler: (bytesSent: number) => void) {}
  async send(body?: Blob | null): Promise<HttpResponse> {
    const signal = AbortSignal.any([this.aborted.signal, AbortSignal.timeout(timeoutMs(body?.size ?? 0))]);
    const response = await this.fetcher(this.url, {
      method: this.method,
      headers: this.headers,
      body: body ?? undefined,
      signal,
    });
    return new FetchResponse(response, await response.text());
  }
  async abort() {
    this.aborted.abort();
  }
  getUnderlyingObject() {
    return null;
  }
}

/** A chunk sent with XMLHttpRequest, whose upload events say how many bytes have left. */
class ProgressRequest extends FetchRequest {
  private onProgress: ((bytesSent: number) => void) | null = null;
  private xhr: XMLHttpRequest | null = null;

  override setProgressHandler(handler: (bytesSent: number) => void) {
    this.onProgress = handler;
  }
  override send(body?: Blob | null): Promise<HttpResponse> {
    const xhr = new XMLHttpRequest();
    this.xhr = xhr;
    return new Promise((resolve, reject) => {
      xhr.open(this.getMethod(), this.getURL(), true);
      xhr.withCredentials = true;
      xhr.timeout = timeoutMs(body?.size ?? 0);
      for (const [name, value] of Object.entries(this.headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => this.onProgress?.(event.loaded);
      xhr.onload = () => resolve(new XhrResponse(xhr));
      const failed = (what: string) => () => reject(new TypeError(`Failed to fetch (${what})`));
      xhr.onerror = failed('network error');
      xhr.ontimeout = failed('timed out');
      xhr.onabort = failed('aborted');
      xhr.send(body ?? null);
    });
  }
  override async abort() {
    this.xhr?.abort();
  }
}

class XhrResponse implements HttpResponse {
  constructor(private readonly xhr: XMLHttpRequest) {}
  getStatus() {
    return this.xhr.status;
  }
  getHeader(name: string) {
    return this.xhr.getResponseHeader(name) ?? undefined;
  }
  getBody() {
    return this.xhr.responseText;
  }
  getUnderlyingObject() {
    return this.xhr;
  }
}

/**
 * Requests through `fetcher`; a chunk's PATCH through XMLHttpRequest when `progressive` (the
 * window, whose fetch and XMLHttpRequest send the same session cookie).
 */
export function fetchHttpStack(fetcher: typeof fetch, progressive = false): HttpStack {
  return {
    createRequest: (method, url) =>
      progressive && method === 'PATCH'
        ? new ProgressRequest(method, url, fetcher)
        : new FetchRequest(method, url, fetcher),
    getName: () => 'FetchHttpStack',
  };
}

/** The first chunk sent without progress events, and the least of any: a second at 256 KB/s. */
const FIRST_SLICE_BYTES = 256 * 1024;
/** How long a chunk without progress events should take: progress moves about this often. */
const SLICE_TARGET_MS = 1000;

/**
 * Chunks of a Blob as Blobs (fetch sends them as they are). `paced`: where a request reports no
 * progress (fetch), each chunk is cut to about a second's worth at the rate the last one went
 * (between 256 KB and tus's chunk size), so progress moves every second or so instead of in 5 MB
 * steps; tus-js-client sends what a slice gives and goes on from the server's offset.
 */
export function blobReader(paced: boolean): FileReader {
  return {
    async openFile(input: Blob): Promise<FileSource> {
      let last: { at: number; bytes: number } | null = null;
      const paceEnd = (start: number, end: number) => {
        const now = Date.now();
        const rate = last ? last.bytes / Math.max(1, now - last.at) : 0;
        const bytes = Math.max(FIRST_SLICE_BYTES, Math.round(rate * SLICE_TARGET_MS));
        const paced = Math.min(end, start + bytes);
        last = { at: now, bytes: paced - start };
        return paced;
      };
      return {
        size: input.size,
        slice: async (start, end) => {
          const until = paced ? paceEnd(start, end) : end;
          return { value: input.slice(start, until), done: until >= input.size };
        },
        close() {},
      };
    },
  };
}
