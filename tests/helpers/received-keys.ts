/**
 * Rule 2 as the device lives it: no entry is sent again after its reply was received. A fetch
 * that wraps the client's own notes, per Idempotency-Key, the replies that reached the client
 * whole (a batch's items one by one, from its reply), and every key sent again after that.
 *
 * The fault proxy cannot tell this by itself: it sees a reply written to the client's socket,
 * and a client whose timeout fires just then aborts without reading it, and rightly sends the
 * entry again. The client knows which replies it read.
 */
import { BATCH_PATH } from '../../src/contract/batch';

export interface ReceivedKeys {
  fetch: typeof fetch;
  /** Keys sent again after a reply to them (below 500) was received, in the order sent. */
  resent: string[];
}

const isBatch = (request: Request) => new URL(request.url).pathname.endsWith(`/${BATCH_PATH}`);

/** The keys a request carries: its header's, or its batch items'. */
async function keysSent(request: Request): Promise<string[]> {
  if (!isBatch(request)) {
    const key = request.headers.get('idempotency-key');
    return key === null ? [] : [key];
  }
  const body = JSON.parse(await request.clone().text()) as { requests?: { key?: string }[] };
  return (body.requests ?? []).map((item) => item.key ?? '');
}

/** The keys whose reply arrived whole and final (a 5xx is retried, as is a batch not answered 200). */
function keysAnswered(request: Request, keys: string[], status: number, text: string): string[] {
  if (!isBatch(request)) return status < 500 ? keys : [];
  if (status !== 200) return [];
  let replies: { status: number }[] = [];
  try {
    replies = (JSON.parse(text) as { replies?: { status: number }[] }).replies ?? [];
  } catch {
    // Not a batch reply the client can use: nothing in it was answered.
  }
  return keys.filter((key, i) => key !== '' && (replies[i]?.status ?? 500) < 500);
}

export function watchReceivedKeys(inner: typeof fetch): ReceivedKeys {
  const received = new Set<string>();
  const resent: string[] = [];
  const watched: typeof fetch = async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const keys = await keysSent(request);
    for (const key of keys) if (received.has(key)) resent.push(key);
    const response = await inner(request);
    // Read whole here: a timeout that fires while it is read means it was not received.
    const bytes = await response.arrayBuffer();
    for (const key of keysAnswered(request, keys, response.status, new TextDecoder().decode(bytes)))
      received.add(key);
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : bytes, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return { fetch: watched, resent };
}
