/**
 * A TCP proxy for the outbox benchmark that loses replies after the server has committed
 * them: the request goes through, the server applies the change and answers, and the proxy
 * closes the browser's connection instead of passing the answer on. That is the case where a
 * client cannot know whether its change was applied, so only the server's deduplication by
 * Idempotency-Key can keep it from being applied twice. A lost batch reply (many outbox
 * entries in one request, src/contract/batch.ts) loses every item's reply at once.
 *
 * Two connection styles:
 * - keep-alive (default): the browser reuses connections. When a reused connection drops
 *   before a reply, Chromium itself re-sends the request, POST included (design brief §8).
 * - closeAfterReply: the proxy rewrites each request's `Connection: keep-alive` into
 *   `Connection: close`, so the server answers `Connection: close` and ends the connection
 *   after every reply, and the browser opens a new one per request. A lost reply is then a
 *   network error the outbox itself must retry.
 *
 * Cuts (the upload benchmark, bench/upload.mjs): `cutEvery(bytes)` closes whichever connection
 * carries each further `bytes` bytes from the browser, in the middle of whatever it is sending;
 * the bytes before the cut reach the server, which sees a client that went away.
 *
 * HTTP/1.1 without pipelining (Chromium does not pipeline), so the replies on a connection come
 * in the order of its requests; a request starts with a method token at the start of a chunk.
 */
import net from 'node:net';
import { seededRandom } from './seeded-random.mjs';

const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+) HTTP\/1\.[01]\r\n/;

/**
 * What the browser sends on one connection: counted, its request lines noted, the head
 * rewritten to `Connection: close` where asked; past the next cut, the connection is cut.
 */
function fromBrowser(p, conn, received) {
  const { stats, cut } = p;
  const { client, upstream } = conn;
  if (cut && stats.bytesUp + received.length >= cut.next) {
    const before = received.subarray(0, cut.next - stats.bytesUp);
    stats.bytesUp = cut.next;
    stats.cuts += 1;
    cut.next += cut.every;
    conn.cutHere = true;
    client.destroy();
    upstream.end(before);
    return;
  }
  stats.bytesUp += received.length;
  let chunk = received;
  const text = chunk.toString('latin1');
  const match = REQUEST_LINE.exec(text);
  if (match) {
    stats.requests += 1;
    const line = `${match[1]} ${match[2]}`;
    p.requestLines.push(line);
    p.requestLog.push({ line, at: performance.now() });
    if (p.fault.pattern.test(line)) stats.writes += 1;
    conn.waiting.push(line);
    if (p.options.closeAfterReply && text.includes('\r\n\r\n')) {
      const head = text.indexOf('\r\n\r\n');
      // Chromium writes a request's head in one piece; the rewrite only touches the head.
      const rewritten = text.slice(0, head).replace(/\r\nconnection: [^\r\n]*/i, '\r\nConnection: close');
      chunk = Buffer.from(rewritten + text.slice(head), 'latin1');
    }
  }
  upstream.write(chunk);
}

/** What the server answers on one connection: passed on, unless its reply is to be lost. */
function fromServer(p, conn, chunk) {
  const { stats, fault } = p;
  const { client, upstream } = conn;
  if (chunk.subarray(0, 7).toString('latin1') === 'HTTP/1.') {
    const line = conn.waiting.shift() ?? '';
    const head = chunk.toString('latin1', 0, Math.min(chunk.length, 2048)).toLowerCase();
    if (head.includes('\r\nidempotent-replayed:')) stats.replayed += 1;
    conn.dropping = fault.rate > 0 && fault.pattern.test(line) && p.random() < fault.rate;
    if (conn.dropping) stats.dropped += 1;
  }
  if (conn.cutHere) return; // the browser is gone
  if (conn.dropping) {
    // The server has committed and answered; the browser never hears of it.
    client.destroy();
    upstream.destroy();
    return;
  }
  client.write(chunk);
}

/** One browser connection, relayed to the server. */
function relay(p, client) {
  p.stats.connections += 1;
  const upstream = net.connect(p.targetPort, '127.0.0.1');
  p.sockets.add(client).add(upstream);
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  const conn = {
    client,
    upstream,
    /** Request lines waiting for their reply, oldest first. */
    waiting: [],
    dropping: false,
    /** Cut: the server still gets what was written before the cut, so the upstream only ends. */
    cutHere: false,
  };
  client.on('data', (received) => fromBrowser(p, conn, received));
  upstream.on('data', (chunk) => fromServer(p, conn, chunk));

  // The server ended the connection after a reply (Connection: close): pass that on.
  upstream.on('end', () => client.end());
  client.on('end', () => upstream.end());
  const gone = () => {
    client.destroy();
    // After a cut the upstream closes by itself once the server has read what it got.
    if (!conn.cutHere) upstream.destroy();
    p.sockets.delete(client);
    p.sockets.delete(upstream);
  };
  client.on('close', gone).on('error', gone);
  upstream.on('close', gone).on('error', gone);
}

/**
 * @param {number} targetPort the server's port on 127.0.0.1
 * @param {{ closeAfterReply?: boolean, seed?: number }} options
 */
export async function startFaultProxy(targetPort, options = {}) {
  const p = {
    targetPort,
    options,
    random: seededRandom(options.seed ?? 1),
    stats: { connections: 0, requests: 0, writes: 0, dropped: 0, replayed: 0, bytesUp: 0, cuts: 0 },
    /** Every request line seen ('POST /api/...'), in order. */
    requestLines: [],
    /** The same with the time each arrived (performance.now() of this process). */
    requestLog: [],
    /** The next cut, as a count of stats.bytesUp, and the distance between cuts; off when null. */
    cut: null,
    /** Which requests may lose their reply, and how often. Off until the benchmark sets it. */
    fault: { rate: 0, pattern: /^POST \/api\/(Masterfilter\/|sync\/batch)/ },
    sockets: new Set(),
  };
  const { stats, sockets } = p;
  const server = net.createServer((client) => relay(p, client));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();

  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    requestLines: p.requestLines,
    requestLog: p.requestLog,
    /** From now on, cut the connection carrying every further `bytes` bytes from the browser; null stops. */
    cutEvery(bytes) {
      p.cut = bytes ? { next: stats.bytesUp + bytes, every: bytes } : null;
    },
    /** Lose this share (0..1) of the replies to outbox writes from now on. */
    setDropRate(rate) {
      p.fault.rate = rate;
    },
    /**
     * Relays to another port from now on (the drain's Workbox ceiling: a server that only
     * records). Open connections are closed, so the browser's next request opens a new one.
     */
    retarget(port) {
      p.targetPort = port;
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
