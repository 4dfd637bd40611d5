/**
 * One connection to the server's live stream (contract/wire.ts, LIVE_EVENTS_PATH), read with
 * fetch rather than EventSource: the caller must know why a stream ended (a 404 is a server
 * without one, a 401 a session that ended, anything else a reason to come back), and send
 * the last id it heard as Last-Event-ID itself. Each event is the change sequence the server
 * reached, the first one as soon as the stream opens: a stream that has said nothing is not
 * known to work (a proxy may hold it back), however open it looks.
 */
import { LIVE_EVENTS_PATH, LIVE_KEEP_ALIVE_MS } from '../contract/wire';

export type StreamEnd =
  /** The server has no live stream (the PHP API, ours in legacy mode). */
  | { kind: 'absent' }
  /** The session ended: sign in again. */
  | { kind: 'signed-out' }
  /** Cut, refused for now, or closed by the server (a shutdown): connect again. */
  | { kind: 'again' };

export interface StreamOptions {
  apiRoot: string;
  fetch: typeof fetch;
  /** The last id heard, sent back so the server tells at once of what was missed. */
  lastId?: string;
  signal: AbortSignal;
  /** The sequence the server has reached: first when the stream opens, then after each commit. */
  onEvent(id: string): void;
}

/** Feeds the text of a stream in; calls `onEvent` with each complete event's id. */
export function eventReader(onEvent: (id: string) => void): (text: string) => void {
  let buffer = '';
  let id: string | null = null;
  return (text) => {
    buffer += text;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (id !== null) onEvent(id);
        id = null;
      } else if (line.startsWith('id:')) id = line.slice(3).trim();
    }
  };
}

const endOf = (status: number): StreamEnd =>
  status === 404 || status === 405
    ? { kind: 'absent' }
    : status === 401
      ? { kind: 'signed-out' }
      : { kind: 'again' };

/** Reads the stream until it ends, and says why it did. */
export async function followLiveStream(options: StreamOptions): Promise<StreamEnd> {
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (options.lastId) headers['Last-Event-ID'] = options.lastId;
  try {
    const res = await options.fetch(`${options.apiRoot.replace(/\/+$/, '')}/${LIVE_EVENTS_PATH}`, {
      headers,
      credentials: 'include',
      cache: 'no-store',
      signal: options.signal,
    });
    const type = res.headers.get('Content-Type') ?? '';
    if (!res.ok || !res.body || !type.startsWith('text/event-stream')) {
      await res.body?.cancel().catch(() => {});
      return res.ok ? { kind: 'absent' } : endOf(res.status);
    }
    return await readUntilEnd(res.body, eventReader(options.onEvent));
  } catch {
    return { kind: 'again' };
  }
}

/**
 * A connection can die without a word (a sleeping router, a NAT that forgot it): a stream that
 * has sent nothing, not even its keep-alive comment, for this long is given up and made again.
 */
const SILENT_LIMIT_MS = LIVE_KEEP_ALIVE_MS * 2.5;

async function readUntilEnd(
  body: ReadableStream<Uint8Array>,
  read: (text: string) => void,
): Promise<StreamEnd> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let silence: ReturnType<typeof setTimeout> | undefined;
  const listen = () => {
    clearTimeout(silence);
    silence = setTimeout(() => void reader.cancel().catch(() => {}), SILENT_LIMIT_MS);
  };
  try {
    for (;;) {
      listen();
      const { done, value } = await reader.read();
      if (done) return { kind: 'again' };
      read(decoder.decode(value, { stream: true }));
    }
  } finally {
    clearTimeout(silence);
  }
}
