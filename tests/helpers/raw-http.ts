/**
 * HTTP requests that fetch cannot send: a body announced by its Content-Length (or sent in
 * chunks) of which only a part is ever written. The reply is awaited while the rest of the
 * body is held back, so a reply at all proves the server answered without reading the body.
 */
import http from 'node:http';

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
