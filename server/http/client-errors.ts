/**
 * Requests Node's HTTP parser refuses before any handler sees them (a request line or headers
 * over its 16 KB limit, malformed HTTP) get the API's JSON failure too, not Node's bare page.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { TEXT } from './reply';

export function answerClientErrors(server: Pick<Server, 'on'>): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection the client dropped has nobody to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    // Headers slower than REQUEST_TIMEOUT_SECONDS (Node's headersTimeout, server/ops/timeouts.ts).
    const tooSlow = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const [status, message] = tooLarge
      ? ['431 Request Header Fields Too Large', TEXT.headersTooLarge]
      : tooSlow
        ? ['408 Request Timeout', TEXT.requestTooSlow]
        : ['400 Bad Request', TEXT.malformedRequest];
    const body = JSON.stringify({ success: false, message });
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
