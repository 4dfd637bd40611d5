/**
 * The drain benchmark's ceiling for Workbox: a server that only records the legacy write
 * requests it gets and answers each at once with the success reply the original server gives
 * (`{"success":true,"message":"Class added successfully"}`), applying nothing. Workbox's replay
 * to it is as fast as Workbox itself can go (one request at a time, its IndexedDB queue in
 * between), whatever a real server costs; bench/drain.mjs compares our drain through our real
 * server with that.
 */
import { createServer } from 'node:http';

const VERBS = { add: 'added', update: 'updated', delete: 'deleted' };

/** 'Masterfilter/Classes/addclasses.php' -> 'Class added successfully'. */
function successMessage(path) {
  const file = path.split('/').pop() ?? '';
  const [, verb, what] = /^(add|update|delete)(\w+?)\.php$/.exec(file) ?? [];
  if (!verb) return 'Done';
  const one = what
    .replace(/ies$/, 'y')
    .replace(/(ss)es$/, '$1')
    .replace(/s$/, '');
  return `${one[0].toUpperCase()}${one.slice(1)} ${VERBS[verb]} successfully`;
}

/** Resolves once it listens; `keys` lists every Idempotency-Key received, in order. */
export async function startRecordingServer() {
  const keys = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      keys.push(req.headers['idempotency-key'] ?? null);
      const body = JSON.stringify({
        success: true,
        message: successMessage(new URL(req.url, 'http://x').pathname),
      });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    keys,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
