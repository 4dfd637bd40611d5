/**
 * Reading the live stream (src/sync/live-stream.ts): events split anywhere across the
 * connection's chunks, in any line ending, comments skipped; why a stream ended, from the
 * server's answer.
 */
import { describe, expect, it } from 'vitest';
import { eventReader, followLiveStream } from '../../../src/sync/live-stream';

describe('eventReader', () => {
  it('hears each complete event once, however the text is cut, and skips comments', () => {
    const ids: string[] = [];
    const read = eventReader((id) => ids.push(id));
    const text =
      'id: 7\ndata: 7\nretry: 2000\n\n: still here\n\nid: 9\r\ndata: 9\r\n\r\nid: 12\ndata: 12\n\n';
    for (let i = 0; i < text.length; i += 3) read(text.slice(i, i + 3));
    expect(ids).toEqual(['7', '9', '12']);
  });

  it('waits for the blank line that ends an event', () => {
    const ids: string[] = [];
    const read = eventReader((id) => ids.push(id));
    read('id: 3\ndata: 3\n');
    expect(ids).toEqual([]);
    read('\n');
    expect(ids).toEqual(['3']);
  });
});

const answer = (status: number, body: string, type = 'application/json') =>
  new Response(body, { status, headers: { 'Content-Type': type } });

const follow = async (fetched: () => Promise<Response>, lastId?: string) => {
  const ids: string[] = [];
  const asked: RequestInit[] = [];
  const end = await followLiveStream({
    apiRoot: '/api/',
    fetch: async (_url, init) => {
      asked.push(init ?? {});
      return fetched();
    },
    lastId,
    signal: new AbortController().signal,
    onEvent: (id) => ids.push(id),
  });
  return { end, ids, asked };
};

describe('followLiveStream', () => {
  it('reads the events of a stream until it ends, then says to connect again', async () => {
    const { end, ids, asked } = await follow(
      async () => answer(200, 'id: 4\ndata: 4\n\nid: 5\ndata: 5\n\n', 'text/event-stream'),
      '3',
    );
    expect(ids).toEqual(['4', '5']);
    expect(end).toEqual({ kind: 'again' });
    expect(asked[0].headers).toMatchObject({ 'Last-Event-ID': '3', Accept: 'text/event-stream' });
  });

  it('tells a server without a stream, a session that ended, and a refusal for now apart', async () => {
    expect((await follow(async () => answer(404, '{"success":false}'))).end).toEqual({ kind: 'absent' });
    // A 200 that is not a stream (a page in its place) is no stream either.
    expect((await follow(async () => answer(200, '<html>', 'text/html'))).end).toEqual({ kind: 'absent' });
    expect((await follow(async () => answer(401, '{"success":false}'))).end).toEqual({ kind: 'signed-out' });
    for (const status of [429, 502, 503])
      expect((await follow(async () => answer(status, '{}'))).end).toEqual({ kind: 'again' });
    expect(
      (
        await follow(async () => {
          throw new TypeError('Failed to fetch');
        })
      ).end,
    ).toEqual({ kind: 'again' });
  });
});
