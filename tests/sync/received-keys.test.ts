/**
 * The property suite's rule 2 check (helpers/received-keys.ts): a key sent again after its reply
 * was received is noted, one sent again after a reply that never arrived whole or was a 5xx is
 * not; a batch's items count one by one. Against a small real HTTP server.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchReceivedKeys } from '../helpers/received-keys';

let server: Server;
let root: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/api/slow') return void setTimeout(() => res.end('{}'), 500);
      if (req.url === '/api/fails') return void res.writeHead(503).end('{}');
      if (req.url === '/api/sync/batch') {
        const { requests } = JSON.parse(body) as { requests: { key: string }[] };
        const replies = requests.map((r) => ({ status: r.key.startsWith('bad') ? 500 : 200, body: {} }));
        return void res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ success: true, replies }));
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"success":true}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  root = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
});
afterAll(() => server.close());

const single = (path: string, key: string, signal?: AbortSignal) => ({
  url: `${root}/${path}`,
  init: { method: 'POST', headers: { 'Idempotency-Key': key }, body: '{}', signal },
});

describe('watchReceivedKeys', () => {
  it('notes a key sent again after its reply was received, and reads the reply through', async () => {
    const { fetch, resent } = watchReceivedKeys(globalThis.fetch);
    const once = single('ok', 'k1');
    expect(await (await fetch(once.url, once.init)).json()).toEqual({ success: true });
    await fetch(once.url, once.init);
    expect(resent).toEqual(['k1']);
  });

  it('lets a key go again after a 5xx or a reply the client gave up on', async () => {
    const { fetch, resent } = watchReceivedKeys(globalThis.fetch);
    const failed = single('fails', 'k2');
    expect((await fetch(failed.url, failed.init)).status).toBe(503);
    await fetch(failed.url, failed.init);
    const slow = single('slow', 'k3', AbortSignal.timeout(50));
    await expect(fetch(slow.url, slow.init)).rejects.toThrow();
    const again = single('ok', 'k3');
    await fetch(again.url, again.init);
    expect(resent).toEqual([]);
  });

  it('counts a batch item by its own reply', async () => {
    const { fetch, resent } = watchReceivedKeys(globalThis.fetch);
    const batch = (keys: string[]) =>
      fetch(`${root}/sync/batch`, {
        method: 'POST',
        body: JSON.stringify({ requests: keys.map((key) => ({ method: 'POST', path: 'x', key, json: {} })) }),
      });
    await batch(['good-1', 'bad-1']);
    await batch(['bad-1', 'good-1']);
    expect(resent).toEqual(['good-1']);
  });
});
