/**
 * Who is on the other end of a request: the client's address and whether it came over HTTPS.
 * Behind a reverse proxy the TCP peer is the proxy, which reports the client in
 * X-Forwarded-For and the scheme in X-Forwarded-Proto. Anyone can send those headers, so they
 * are believed only from a peer that TRUST_PROXY names, and never by default.
 *
 * TRUST_PROXY: `loopback` (a proxy on the same machine), a comma-separated list of the proxy's
 * addresses, or `all` (any peer: only when the server cannot be reached but through the proxy).
 * One hop: the proxy must SET both headers (nginx: `proxy_set_header X-Forwarded-Proto
 * $scheme; proxy_set_header X-Forwarded-For $remote_addr;`); when it appends instead, the last
 * entry, the one it added, is the one read.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Context } from 'hono';

export type TrustProxy = 'none' | 'loopback' | 'all' | readonly string[];

export interface ClientInfo {
  /** The client's address ('unknown' for requests that did not come from a socket). */
  address: string;
  https: boolean;
}

/** Reads the TRUST_PROXY setting; throws with a message for a value it does not understand. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'none') return 'none';
  if (v === 'loopback' || v === 'all') return v;
  const list = v.split(',').map((s) => s.trim());
  const bad = list.find((a) => isIP(a) === 0);
  if (bad !== undefined)
    throw new Error(`TRUST_PROXY: '${bad}' is not an IP address (use loopback, all, or addresses)`);
  return list.map(plainAddress);
}

/** '::ffff:127.0.0.1' (an IPv4 peer on a dual-stack socket) is 127.0.0.1. */
const plainAddress = (a: string) => (a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a);

/** Whether a host name or address is this machine's loopback (HOST, a socket's peer). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(h);
}

const isLoopback = (a: string) => a === '::1' || /^127\./.test(a);

function trusts(trust: TrustProxy, peer: string): boolean {
  if (trust === 'none' || peer === 'unknown') return false;
  if (trust === 'all') return true;
  if (trust === 'loopback') return isLoopback(peer);
  return trust.includes(peer);
}

const lastOf = (header: string | undefined) => header?.split(',').at(-1)?.trim() || undefined;

/** The TCP peer's address ('unknown' for requests made in process, app.request in tests). */
function peerOf(c: Context): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const raw = incoming?.socket?.remoteAddress;
  return raw ? plainAddress(raw) : 'unknown';
}

/** Whether the request came from a proxy that TRUST_PROXY names (its headers are believed). */
export const fromTrustedProxy = (c: Context, trust: TrustProxy): boolean => trusts(trust, peerOf(c));

/**
 * Whether the client is on this machine: a loopback peer that is not forwarding for someone
 * else. A request from a trusted proxy counts by the address the proxy forwarded; one that
 * carries forwarding headers from a loopback peer that TRUST_PROXY does not name (a proxy on
 * this machine that nobody declared) does not count, since it may come from anywhere.
 */
export function isLocalClient(c: Context, trust: TrustProxy): boolean {
  const peer = peerOf(c);
  if (!isLoopback(peer)) return false;
  const forwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((h) => c.req.header(h) !== undefined);
  if (!forwarded) return true;
  if (!trusts(trust, peer)) return false;
  const address = lastOf(c.req.header('x-forwarded-for'));
  return address !== undefined && isIP(address) !== 0 && isLoopback(plainAddress(address));
}

export function clientInfo(c: Context, trust: TrustProxy): ClientInfo {
  const peer = peerOf(c);
  const direct = { address: peer, https: new URL(c.req.url).protocol === 'https:' };
  if (!trusts(trust, peer)) return direct;
  const forwardedFor = lastOf(c.req.header('x-forwarded-for'));
  const proto = lastOf(c.req.header('x-forwarded-proto'));
  return {
    address: forwardedFor && isIP(forwardedFor) ? plainAddress(forwardedFor) : peer,
    https: proto === undefined ? direct.https : proto.toLowerCase() === 'https',
  };
}
