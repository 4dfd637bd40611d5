/**
 * Endpoints looked up by method, path and query. Several endpoints may share one legacy path
 * and be told apart by a fixed query parameter (`Resources/ResourceTypes/index.php?type=fetch`,
 * `?type=insert`, ...): a request matches the endpoint whose fixed parameters it all carries,
 * the most specific one first. The server mounts each path once and dispatches with this; the
 * client uses it to decide what a batch may carry.
 */
import type { Endpoint } from './endpoints';

interface Entry<T> {
  endpoint: Endpoint;
  value: T;
}

export class RouteTable<T> {
  private readonly byPath = new Map<string, Entry<T>[]>();

  /** Throws when an endpoint with the same method, path and fixed query is already there. */
  add(endpoint: Endpoint, value: T): this {
    const key = `${endpoint.method} ${endpoint.path}`;
    const list = this.byPath.get(key) ?? [];
    const same = list.find((e) => sameQuery(e.endpoint.query, endpoint.query));
    if (same) throw new Error(`Two endpoints for ${key} ${JSON.stringify(endpoint.query)}`);
    list.push({ endpoint, value });
    // Most fixed parameters first: `?type=fetch&x=1` before `?type=fetch` before none.
    list.sort((a, b) => Object.keys(b.endpoint.query).length - Object.keys(a.endpoint.query).length);
    this.byPath.set(key, list);
    return this;
  }

  match(method: string, path: string, query: Readonly<Record<string, unknown>>): Entry<T> | undefined {
    return this.byPath
      .get(`${method} ${path}`)
      ?.find((e) => Object.entries(e.endpoint.query).every(([k, v]) => String(query[k] ?? '') === v));
  }

  /** Each method and path once, with every endpoint sharing it. */
  *paths(): Iterable<{ method: 'GET' | 'POST'; path: string; entries: readonly Entry<T>[] }> {
    for (const entries of this.byPath.values()) {
      const { method, path } = entries[0].endpoint;
      yield { method, path, entries };
    }
  }
}

function sameQuery(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
