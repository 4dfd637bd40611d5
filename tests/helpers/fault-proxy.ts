/**
 * A TCP proxy between the client and the server that can lose replies: it forwards the
 * request, lets the server commit and answer, then closes the client's connection instead
 * of passing the answer on. That is the hardest case for exactly-once delivery.
 */
import net from 'node:net';

export interface FaultProxy {
  url: string;
  /** Lose the reply of the next `count` requests whose request line matches `pattern`. */
  dropRepliesTo(pattern: RegExp, count?: number): void;
  /** Requests whose reply was lost so far. */
  dropped: number;
  close(): Promise<void>;
}

export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  const rules: { pattern: RegExp; left: number }[] = [];
  const sockets = new Set<net.Socket>();
  const state = { dropped: 0 };

  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let dropNext = false;
    client.on('data', (chunk) => {
      const requestLine = chunk.toString('latin1').split('\r\n', 1)[0];
      const rule = rules.find((r) => r.left > 0 && r.pattern.test(requestLine));
      if (rule) {
        rule.left -= 1;
        dropNext = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (dropNext) {
        state.dropped += 1;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    dropRepliesTo(pattern, count = 1) {
      rules.push({ pattern, left: count });
    },
    get dropped() {
      return state.dropped;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
