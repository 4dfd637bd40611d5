/**
 * A TCP proxy between the client and the server that injects the faults a real network and
 * a real server produce, one HTTP request at a time:
 *
 * - `drop`: forward the request, let the server commit and answer, then close the client's
 *   connection instead of passing the answer on (the hardest case for exactly-once delivery);
 * - `status`: answer 500/503 (optionally with Retry-After) itself, WITHOUT forwarding, so the
 *   server never sees the request;
 * - `hang`: never answer, with or without forwarding first (with forwarding the server may
 *   commit), so the client's own timeout has to fire;
 * - `reset`: close the connection without forwarding (connection reset mid-request);
 * - `down()`/`up()`: the whole upstream unavailable, as refused connections (the proxy stops
 *   listening) or as connections reset on arrival;
 * - `random()`: each request independently gets pass, drop, 503 + Retry-After: 0 or hang,
 *   (or reset) with given weights, drawn from a seeded PRNG;
 * - `cutAfterBytes()`: the connection is cut in the middle of whatever it carries once the
 *   clients have sent so many more bytes (a large upload's chunk arrives half-sent).
 *
 * Rules and the log see through batches: a rule matches a batch when it matches one of its
 * items, and the log has one entry per item, so tests count deliveries of an entry by its key
 * however it travelled.
 *
 * Requests are parsed on their boundaries (head, then Content-Length bytes of body; our
 * client never sends chunked bodies, but they are parsed too) and handled one at a time per connection, so the
 * decision for each request on a keep-alive connection applies to that request only. Replies
 * are parsed the same way (Content-Length, chunked, or until close) to know where each ends.
 */
import net from 'node:net';
import { seededRandom } from '../../bench/seeded-random.mjs';
import { BATCH_PATH, type BatchItem } from '../../src/contract/batch';

export type Fault =
  | { kind: 'pass' }
  | { kind: 'drop' }
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'hang'; forward: boolean }
  | { kind: 'reset' }
  /** Cut after a byte count: the request reached the server half-sent (cutAfterBytes). */
  | { kind: 'cut' };

/**
 * One request as the server would see it alone: an HTTP request, or one item of a batch
 * (src/contract/batch.ts), which shares its HTTP request's fault and fate.
 */
export interface ProxiedRequest {
  /** Order of arrival at the proxy, from 0 (items of a batch in their order). */
  n: number;
  /** The HTTP request it travelled in, by order of arrival from 0. */
  request: number;
  /** True for an item of a batch. */
  batched: boolean;
  method: string;
  /** Request target as sent, e.g. '/api/Masterfilter/Classes/addclasses.php'. */
  target: string;
  /** The Idempotency-Key header, when sent. */
  key: string | null;
  fault: Fault['kind'];
  /** True once the server's whole reply (or the proxy's own fault reply) reached the client. */
  replied: boolean;
  /**
   * The status of that reply. A 5xx is retried by the client: behind a balancer it may be the
   * balancer's own 502 for a server that died with the request.
   */
  status?: number;
  /** True when the request was forwarded to the server (it may have committed). */
  forwarded: boolean;
}

export interface RandomFaults {
  /** fast-check seeds are 32-bit integers; any integer works. */
  seed: number;
  /** Relative weights; missing ones count 0. */
  pass?: number;
  drop?: number;
  /** 503 with Retry-After: 0, not forwarded. */
  unavailable?: number;
  hang?: number;
  /** Connection closed before forwarding (never reaches the server). */
  reset?: number;
  /** Whether a hang forwards first (the server may commit). Default true. */
  hangForwards?: boolean;
  /** Which requests may get a fault, by request line ('POST /api/... HTTP/1.1'). Default: POSTs. */
  match?: RegExp;
}

export interface FaultProxy {
  url: string;
  /** Lose the reply of the next `count` requests whose request line matches `pattern`. */
  dropRepliesTo(pattern: RegExp, count?: number): void;
  /** Answer the next `count` matching requests with `status` (and Retry-After), not forwarded. */
  failNext(pattern: RegExp, options: { status: number; retryAfter?: string | number; count?: number }): void;
  /** Never answer the next `count` matching requests; `forward` lets the server see (and commit) them. */
  hangNext(pattern: RegExp, options: { forward: boolean; count?: number }): void;
  /** Close the connection of the next `count` matching requests without forwarding them. */
  resetNext(pattern: RegExp, count?: number): void;
  /**
   * Upstream unavailable until `up()`: 'refuse' stops listening (new connections are refused,
   * open ones closed), 'reset' accepts connections and resets them at once.
   */
  down(mode?: 'refuse' | 'reset'): Promise<void>;
  up(): Promise<void>;
  /** `down(mode)`, then `up()` after `ms`; resolves when up again. */
  downFor(ms: number, mode?: 'refuse' | 'reset'): Promise<void>;
  /**
   * Cuts the connection carrying the clients' `bytes`-th byte from now (every connection's
   * bytes counted together), `times` times, each `bytes` after the one before: the bytes
   * before the cut reach the server (a request's head and part of its body), then both sides
   * are closed. Counts only while armed.
   */
  cutAfterBytes(bytes: number, times?: number): void;
  /** Bytes the clients have sent through the proxy so far. */
  readonly bytesFromClients: number;
  /** Random faults on every matching request from now on; `random(null)` stops them. */
  random(options: RandomFaults | null): void;
  /** Forget every rule and random mode (the log stays). */
  clear(): void;
  /** Every request seen, in order of arrival. */
  readonly log: readonly ProxiedRequest[];
  /** Requests whose reply was lost so far (`drop`). */
  readonly dropped: number;
  close(): Promise<void>;
}

/** `hash` mixes the seed with a request's identity; the draw is the benches' seeded generator. */
function hash(seed: number, text: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const HEAD_END = Buffer.from('\r\n\r\n');

interface ParsedHead {
  /** Bytes of the head including the blank line. */
  length: number;
  firstLine: string;
  headers: Map<string, string>;
}

function parseHead(buf: Buffer): ParsedHead | null {
  const end = buf.indexOf(HEAD_END);
  if (end < 0) return null;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const at = line.indexOf(':');
    if (at > 0) headers.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim());
  }
  return { length: end + 4, firstLine: lines[0], headers };
}

const isChunked = (head: ParsedHead) => /chunked/i.test(head.headers.get('transfer-encoding') ?? '');

/** Where a chunked body starting at `at` ends (no trailers: Node sends none unless asked). */
function chunkedEnd(buf: Buffer, at: number): number | 'incomplete' {
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at);
    if (lineEnd < 0) return 'incomplete';
    const size = Number.parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return buf.length >= lineEnd + 4 ? lineEnd + 4 : 'incomplete';
    at = lineEnd + 2 + size + 2;
    if (at > buf.length) return 'incomplete';
  }
}

/** Where the request in `buf` ends, or null when more bytes are needed. */
function requestEnd(buf: Buffer, head: ParsedHead): number | null {
  if (isChunked(head)) {
    const end = chunkedEnd(buf, head.length);
    return end === 'incomplete' ? null : end;
  }
  const total = head.length + Number(head.headers.get('content-length') ?? 0);
  return buf.length >= total ? total : null;
}

/**
 * Where the reply in `buf` ends: a byte count, 'incomplete' when more bytes are needed, or
 * 'close' when it is delimited by the connection closing.
 */
function replyEnd(buf: Buffer): number | 'incomplete' | 'close' {
  const head = parseHead(buf);
  if (!head) return 'incomplete';
  const status = Number(head.firstLine.split(' ')[1]);
  if ((status >= 100 && status < 200) || status === 204 || status === 304) return head.length;
  if (isChunked(head)) return chunkedEnd(buf, head.length);
  const length = head.headers.get('content-length');
  if (length === undefined) return 'close';
  const total = head.length + Number(length);
  return buf.length >= total ? total : 'incomplete';
}

type ItemLine = Pick<ProxiedRequest, 'method' | 'target' | 'key' | 'batched'>;

/** The items of a batch request as the requests they stand for; null for any other request. */
function batchItems(method: string, target: string, body: Buffer): ItemLine[] | null {
  if (method !== 'POST' || !target.split('?')[0].endsWith(`/${BATCH_PATH}`)) return null;
  try {
    const { requests } = JSON.parse(body.toString('utf8')) as { requests: BatchItem[] };
    const prefix = target.slice(0, target.indexOf(BATCH_PATH));
    return requests.map((item) => {
      const query = new URLSearchParams(
        Object.entries(item.query ?? {}).map(([k, v]) => [k, String(v)]),
      ).toString();
      return {
        method: item.method,
        target: `${prefix}${item.path}${query ? `?${query}` : ''}`,
        key: item.key ?? null,
        batched: true,
      };
    });
  } catch {
    return null;
  }
}

function faultReply(status: number, retryAfter?: string): Buffer {
  const body = JSON.stringify({ success: false, message: `Injected ${status}` });
  const lines = [
    `HTTP/1.1 ${status} ${status === 503 ? 'Service Unavailable' : 'Internal Server Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: keep-alive',
  ];
  if (retryAfter !== undefined) lines.push(`Retry-After: ${retryAfter}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');
}

export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  const rules: { pattern: RegExp; left: number; fault: Fault }[] = [];
  let randomMode: (RandomFaults & { seen: Map<string, number> }) | null = null;
  let downMode: 'refuse' | 'reset' | null = null;
  const sockets = new Set<net.Socket>();
  const log: ProxiedRequest[] = [];
  let requestCount = 0;
  const state = { dropped: 0, bytesFromClients: 0 };
  /** The next cut (a byte count of bytesFromClients), how far apart, and how many are left. */
  let cut: { at: number; every: number; left: number } | null = null;

  function decide(requestLines: string[], target: string): Fault {
    if (downMode) return { kind: 'reset' };
    const rule = rules.find((r) => r.left > 0 && requestLines.some((line) => r.pattern.test(line)));
    if (rule) {
      rule.left -= 1;
      return rule.fault;
    }
    const r = randomMode;
    if (!r || !requestLines.some((line) => (r.match ?? /^POST /).test(line))) return { kind: 'pass' };
    // Keyed by the path and how often it was seen, so that one path's decisions do not shift
    // when requests to other paths arrive in another order (replay sends up to 6 at once).
    const path = target.split('?')[0];
    const nth = r.seen.get(path) ?? 0;
    r.seen.set(path, nth + 1);
    const draw = seededRandom(hash(r.seed, `${path}#${nth}`))();
    const weights: [Fault, number][] = [
      [{ kind: 'pass' }, r.pass ?? 0],
      [{ kind: 'drop' }, r.drop ?? 0],
      [{ kind: 'status', status: 503, retryAfter: '0' }, r.unavailable ?? 0],
      [{ kind: 'hang', forward: r.hangForwards ?? true }, r.hang ?? 0],
      [{ kind: 'reset' }, r.reset ?? 0],
    ];
    const total = weights.reduce((s, [, w]) => s + w, 0);
    if (total <= 0) return { kind: 'pass' };
    let x = draw * total;
    for (const [fault, w] of weights) {
      if (x < w) return fault;
      x -= w;
    }
    return { kind: 'pass' };
  }

  function handle(client: net.Socket) {
    sockets.add(client);
    if (downMode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    let upstream: net.Socket | null = null;
    let incoming = Buffer.alloc(0);
    let reply = Buffer.alloc(0);
    /** The forwarded request whose reply is awaited (its entries), with its fault. */
    let current: { entries: ProxiedRequest[]; fault: Fault } | null = null;
    /** True while a request is being handled (forwarded, or hanging): later ones wait. */
    let busy = false;
    let closed = false;

    const end = () => {
      if (closed) return;
      closed = true;
      client.destroy();
      upstream?.destroy();
      sockets.delete(client);
      if (upstream) sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);

    const connectUpstream = (): net.Socket => {
      if (upstream) return upstream;
      const up = net.connect(targetPort, '127.0.0.1');
      sockets.add(up);
      reply = Buffer.alloc(0);
      up.on('data', (chunk) => {
        reply = Buffer.concat([reply, chunk]);
        finishReply(false);
      });
      up.on('error', () => {}); // 'close' follows and decides
      up.on('close', () => {
        sockets.delete(up);
        if (upstream === up) upstream = null;
        if (!current) return; // idle keep-alive connection closed by the server: reconnect later
        finishReply(true);
        // The server went away (restart) or refused mid-request: the client's connection is
        // reset, as it would be without the proxy.
        if (current) end();
      });
      upstream = up;
      return up;
    };

    const finishReply = (upstreamClosed: boolean) => {
      if (!current) return;
      const at = replyEnd(reply);
      const complete = typeof at === 'number' ? at : at === 'close' && upstreamClosed ? reply.length : null;
      if (complete === null) return;
      const bytes = reply.subarray(0, complete);
      reply = reply.subarray(complete);
      const { entries, fault } = current;
      current = null;
      if (fault.kind === 'drop') {
        // The server has committed and answered; the client never hears of it.
        state.dropped += 1;
        end();
        return;
      }
      if (fault.kind === 'hang') return; // swallowed; the client times out and closes
      // The client gave up (its timeout) and closed before the reply came: it never got it, so
      // it is not a reply that went through (rule 2 lets the client send the entry again).
      if (closed || client.destroyed) return;
      client.write(bytes);
      // A batch answered with anything but 200 (404 from a server without batches) gave its
      // items no reply of their own: they are sent again, alone or in the next batch.
      const itemsAnswered = !entries[0]?.batched || / 200 /.test(bytes.subarray(0, 16).toString('latin1'));
      const status = Number(bytes.subarray(0, 16).toString('latin1').split(' ')[1]);
      for (const entry of entries) {
        entry.replied = itemsAnswered;
        entry.status = status;
      }
      busy = false;
      next();
    };

    const next = () => {
      while (!busy && !closed) {
        const head = parseHead(incoming);
        if (!head) return;
        const total = requestEnd(incoming, head);
        if (total === null) return;
        const bytes = incoming.subarray(0, total);
        incoming = incoming.subarray(total);
        const [method = '', target = ''] = head.firstLine.split(' ');
        const request = requestCount++;
        const items = batchItems(method, target, bytes.subarray(head.length)) ?? [
          { method, target, key: head.headers.get('idempotency-key') ?? null, batched: false },
        ];
        const fault = decide(
          [head.firstLine, ...items.map((i) => `${i.method} ${i.target} HTTP/1.1`)],
          target,
        );
        const entries = items.map((item) => {
          const entry: ProxiedRequest = {
            n: log.length,
            request,
            ...item,
            fault: fault.kind,
            replied: false,
            forwarded: false,
          };
          log.push(entry);
          return entry;
        });
        const forwarded = () => {
          for (const entry of entries) entry.forwarded = true;
        };
        switch (fault.kind) {
          case 'status':
            client.write(faultReply(fault.status, fault.retryAfter));
            for (const entry of entries) {
              entry.replied = true;
              entry.status = fault.status;
            }
            continue;
          case 'reset':
            end();
            return;
          case 'hang':
            busy = true;
            if (fault.forward) {
              current = { entries, fault };
              forwarded();
              connectUpstream().write(bytes);
            }
            return;
          default:
            busy = true;
            current = { entries, fault };
            forwarded();
            connectUpstream().write(bytes);
            return;
        }
      }
    };

    /** Passes on the bytes before the cut (half a request, as the server sees a dropped client) and closes. */
    const cutHere = (before: Buffer) => {
      incoming = Buffer.concat([incoming, before]);
      next();
      if (closed) return;
      const head = parseHead(incoming);
      if (head && incoming.length > 0) {
        const [method = '', target = ''] = head.firstLine.split(' ');
        const key = head.headers.get('idempotency-key') ?? null;
        const request = requestCount++;
        log.push({
          n: log.length,
          request,
          batched: false,
          method,
          target,
          key,
          fault: 'cut',
          replied: false,
          forwarded: true,
        });
      }
      closed = true;
      current = null;
      client.destroy();
      sockets.delete(client);
      // end, not destroy: what was written still reaches the server, then the connection closes.
      if (incoming.length > 0) connectUpstream().end(incoming);
      else upstream?.end();
    };

    client.on('data', (chunk) => {
      if (closed) return;
      if (cut) {
        const at = state.bytesFromClients + chunk.length;
        if (at >= cut.at) {
          const before = chunk.subarray(0, chunk.length - (at - cut.at));
          state.bytesFromClients = cut.at;
          cut = cut.left > 1 ? { ...cut, at: cut.at + cut.every, left: cut.left - 1 } : null;
          cutHere(before);
          return;
        }
      }
      state.bytesFromClients += chunk.length;
      incoming = Buffer.concat([incoming, chunk]);
      next();
    });
  }

  const server = net.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  const closeAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  const push = (pattern: RegExp, count: number, fault: Fault) => rules.push({ pattern, left: count, fault });

  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${port}`,
    dropRepliesTo(pattern, count = 1) {
      push(pattern, count, { kind: 'drop' });
    },
    failNext(pattern, { status, retryAfter, count = 1 }) {
      push(pattern, count, {
        kind: 'status',
        status,
        retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
      });
    },
    hangNext(pattern, { forward, count = 1 }) {
      push(pattern, count, { kind: 'hang', forward });
    },
    resetNext(pattern, count = 1) {
      push(pattern, count, { kind: 'reset' });
    },
    async down(mode = 'refuse') {
      if (downMode) return;
      downMode = mode;
      closeAll();
      if (mode === 'refuse') await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async up() {
      const was = downMode;
      downMode = null;
      if (was === 'refuse') await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    async downFor(ms, mode = 'refuse') {
      await proxy.down(mode);
      await new Promise((r) => setTimeout(r, ms));
      await proxy.up();
    },
    cutAfterBytes(bytes, times = 1) {
      cut = { at: state.bytesFromClients + bytes, every: bytes, left: times };
    },
    get bytesFromClients() {
      return state.bytesFromClients;
    },
    random(options) {
      randomMode = options ? { ...options, seen: new Map() } : null;
    },
    clear() {
      rules.length = 0;
      randomMode = null;
      cut = null;
    },
    get log() {
      return log;
    },
    get dropped() {
      return state.dropped;
    },
    async close() {
      closeAll();
      if (downMode === 'refuse') return;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
