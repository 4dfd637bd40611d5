/**
 * A test's view of the live stream (server/live): the events' ids as they arrive, read by a
 * parser of its own (not the app's), whether the stream has ended, and a way to close it.
 */
import { LIVE_EVENTS_PATH } from '../../src/contract/wire';

export interface TestStream {
  status: number;
  /** The ids of the events heard so far, in order. */
  ids: number[];
  /** Comments heard (keep-alives). */
  comments: number;
  ended: boolean;
  /** Resolves when the server has ended the stream. */
  done: Promise<void>;
  close(): void;
}

export async function openLiveStream(
  apiRoot: string,
  cookie: string | null,
  headers: Record<string, string> = {},
): Promise<TestStream & { body?: unknown }> {
  const controller = new AbortController();
  const res = await fetch(`${apiRoot}/${LIVE_EVENTS_PATH}`, {
    headers: { ...(cookie ? { Cookie: cookie } : {}), Accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const stream: TestStream & { body?: unknown } = {
    status: res.status,
    ids: [],
    comments: 0,
    ended: false,
    done: Promise.resolve(),
    close: () => controller.abort(),
  };
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    stream.body = await res.json().catch(() => null);
    stream.ended = true;
    return stream;
  }
  stream.done = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        let end = text.indexOf('\n\n');
        while (end >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          if (block.startsWith(':')) stream.comments++;
          const id = /^id: (\d+)$/m.exec(block);
          if (id) stream.ids.push(Number(id[1]));
          end = text.indexOf('\n\n');
        }
      }
    } catch {
      // Closed by the test.
    } finally {
      stream.ended = true;
    }
  })();
  return stream;
}

/**
 * Opens the stream through a balancer until a process takes it: right after a process dies
 * the balancer may still send a connection its way and answer 502 (or 503 with none up)
 * before its health check notices.
 */
export async function openLiveStreamThrough(
  apiRoot: string,
  cookie: string,
  headers: Record<string, string> = {},
): Promise<TestStream> {
  const until = Date.now() + 30_000;
  for (;;) {
    const stream = await openLiveStream(apiRoot, cookie, headers).catch(() => null);
    if (stream?.status === 200) return stream;
    if (stream && stream.status !== 502 && stream.status !== 503)
      throw new Error(`The live stream answered ${stream.status}`);
    if (Date.now() > until) throw new Error('No process took the live stream within 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** How many live streams a server process says it holds (`live_streams_open` on its /metrics). */
export async function liveStreamsOpen(processUrl: string): Promise<number> {
  const text = await (await fetch(`${processUrl}/metrics`)).text();
  const open = /^live_streams_open (\d+)$/m.exec(text);
  if (!open) throw new Error(`${processUrl}/metrics has no live_streams_open`);
  return Number(open[1]);
}
