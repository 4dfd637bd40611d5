/**
 * HTTP requests that fetch cannot send: a body announced by its Content-Length (or sent in
 * chunks) of which only a part is ever written. The reply is awaited while the rest of the
 * body is held back, so a reply at all proves the server answered without reading the body.
 */
import http from 'node:http';
import net from 'node:net';

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Bytes of the body the client had written when the reply arrived. */
  bodyBytesSent: number;
}

export interface PartialBodyRequest {
  port: number;
  method: string;
  /** Path and query, e.g. '/api/Admin_access/login.php'. */
  path: string;
  headers?: Record<string, string>;
  /** The body's announced length; absent: chunked, without an announced length. */
  contentLength?: number;
  /** Bytes written before waiting for the reply (never the whole announced body). */
  send: number;
  /** Written in pieces of this size, each after the previous one drained. Default 64 KB. */
  chunk?: number;
  /** Gives up (rejects) when no reply came in this time. Default 30 s. */
  timeoutMs?: number;
}

/** Writes `send` bytes of a body and resolves with the reply, never writing the rest. */
export function partialBodyRequest(req: PartialBodyRequest): Promise<RawReply> {
  const chunk = req.chunk ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...req.headers };
    if (req.contentLength !== undefined) headers['Content-Length'] = String(req.contentLength);
    else headers['Transfer-Encoding'] = 'chunked';
    const request = http.request({
      host: '127.0.0.1',
      port: req.port,
      method: req.method,
      path: req.path,
      headers,
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`No reply after ${sent} of the body's bytes: the server waited for the body`));
    }, req.timeoutMs ?? 30_000);
    request.on('response', (res) => {
      answered = true;
      const at = sent;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => {
        clearTimeout(timer);
        request.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bodyBytesSent: at });
      });
    });
    // The server may close the connection once it answered; that is not a failure here.
    request.on('error', (err) => {
      if (!answered) {
        clearTimeout(timer);
        reject(err);
      }
    });
    // '[' characters: a body that, were it parsed, would be the deepest JSON possible.
    const piece = Buffer.alloc(chunk, '[');
    const writeMore = () => {
      while (!answered && sent < req.send) {
        const n = Math.min(chunk, req.send - sent);
        sent += n;
        if (!request.write(n === chunk ? piece : piece.subarray(0, n))) {
          request.once('drain', writeMore);
          return;
        }
      }
    };
    request.flushHeaders();
    writeMore();
  });
}

/**
 * Requests sent one after another on ONE connection (each after the previous reply, `after`
 * ms later if given); resolves with the statuses received. A connection the server closed
 * early leaves the later statuses missing.
 */
export function keepAliveExchange(
  port: number,
  requests: readonly { path: string; body: string; after?: number }[],
): Promise<number[]> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const statuses: number[] = [];
    let buffered = '';
    let next = 0;
    const sendNext = () => {
      const r = requests[next++];
      const write = () =>
        socket.write(
          `POST ${r.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(r.body)}\r\n\r\n${r.body}`,
        );
      if (r.after) setTimeout(write, r.after);
      else write();
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      // Each reply has a Content-Length; take whole replies off the front.
      for (;;) {
        const head = buffered.indexOf('\r\n\r\n');
        if (head < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, head))?.[1] ?? 0);
        if (buffered.length < head + 4 + length) return;
        statuses.push(Number(buffered.slice(9, 12)));
        buffered = buffered.slice(head + 4 + length);
        if (next < requests.length) sendNext();
        else socket.end();
      }
    });
    socket.on('close', () => resolve(statuses));
    socket.on('error', () => undefined);
    sendNext();
  });
}
