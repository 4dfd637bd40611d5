/**
 * What tus-js-client needs from its platform, made of what runs everywhere the sync engine
 * runs (window, service worker, Node in tests): requests through the API client's fetch
 * (so the session cookie goes along, and a service worker, which has no XMLHttpRequest, can
 * upload too), and chunks cut from a Blob with `slice`, which reads nothing into memory.
 *
 * fetch reports no upload progress, so progress moves chunk by chunk (5 MB steps).
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
  private readonly headers: Record<string, string> = {};
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
  setProgressHandler() {}
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

export function fetchHttpStack(fetcher: typeof fetch): HttpStack {
  return {
    createRequest: (method, url) => new FetchRequest(method, url, fetcher),
    getName: () => 'FetchHttpStack',
  };
}

/** Chunks of a Blob as Blobs (fetch sends them as they are). */
export const blobReader: FileReader = {
  async openFile(input: Blob): Promise<FileSource> {
    return {
      size: input.size,
      slice: async (start, end) => ({ value: input.slice(start, end), done: end >= input.size }),
      close() {},
    };
  },
};
