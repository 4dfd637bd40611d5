/**
 * CSRF: a state-changing request must come from the app's own origin or one that
 * ALLOWED_ORIGINS names (Origin, else Sec-Fetch-Site), and the JSON endpoints take JSON only,
 * so an auto-submitting form on another site (or another port of the same host, which counts
 * as the same site for SameSite=Lax) can change nothing. Every refusal writes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, authEndpoints } from '../../../src/contract/endpoints';
import { classEntity, entities } from '../../../src/contract/entities';
import { snapshotServer } from '../../helpers/db-snapshot';
import { ADMIN, signedInSuite, signIn, startTestServer } from '../../helpers/server';

const ALLOWED = 'https://admin.example.org';
// The setting is written with a trailing slash: an origin never has one.
const suite = signedInSuite({ seedDemo: true, settings: { allowedOrigins: [`${ALLOWED}/`] } });
const P = classEntity.api;
const crossSite = { success: false, message: 'Requests from other sites are not accepted' };

let cookie = '';
beforeAll(async () => {
  cookie = await signIn(suite.server.apiRoot);
});

/** A class add as a page would send it, with the headers a browser adds. */
const addClass = (name: string, headers: Record<string, string>, path = P.add) =>
  fetch(`${suite.server.apiRoot}/${path}`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ className: name }),
  });

async function classNames(): Promise<string[]> {
  const res = await fetch(`${suite.server.apiRoot}/${P.list}?limit=1000`, { headers: { Cookie: cookie } });
  return ((await res.json()).classes as { class_name: string }[]).map((c) => c.class_name);
}

describe('writes from another origin are refused', () => {
  it('a foreign Origin: 403, nothing written', async () => {
    const before = await snapshotServer(suite.server);
    for (const origin of ['https://evil.example', 'null', `${suite.server.url}.evil.example`]) {
      const res = await addClass('From elsewhere', { Origin: origin });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toEqual(crossSite);
    }
    expect(await snapshotServer(suite.server)).toEqual(before);
  });

  it('another port of the same host (the issue’s attack): 403 even though it is the same site', async () => {
    const other = new URL(suite.server.url);
    other.port = String(suite.server.port + 1);
    const form = new URLSearchParams({ className: 'Same site' });
    const res = await fetch(`${suite.server.apiRoot}/${P.add}`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: other.origin, 'Sec-Fetch-Site': 'same-site' },
      body: form,
    });
    expect(res.status).toBe(403);
    expect(await classNames()).not.toContain('Same site');
  });

  it('Sec-Fetch-Site cross-site or same-site without an Origin: 403', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await addClass('By fetch metadata', { 'Sec-Fetch-Site': site });
      expect(res.status, site).toBe(403);
      expect(await res.json()).toEqual(crossSite);
    }
    expect(await classNames()).not.toContain('By fetch metadata');
  });

  it('every write endpoint and the batch are guarded, and login too (login CSRF)', async () => {
    const before = await snapshotServer(suite.server);
    const writes = entities.flatMap((e) => allEndpoints(e)).filter((ep) => ep.method === 'POST');
    const paths = [
      ...writes.map((ep) => `${ep.path}?${new URLSearchParams(ep.query)}`),
      'sync/batch',
      authEndpoints.login.path,
      authEndpoints.logout.path,
    ];
    for (const path of paths) {
      const res = await fetch(`${suite.server.apiRoot}/${path}`, {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/json', Origin: 'https://evil.example' },
        body: JSON.stringify(ADMIN),
      });
      expect(res.status, path).toBe(403);
      expect(await res.json()).toEqual(crossSite);
    }
    expect(await snapshotServer(suite.server)).toEqual(before);
    // The session survived the refused logout.
    expect((await fetch(`${suite.server.apiRoot}/${P.list}`, { headers: { Cookie: cookie } })).status).toBe(
      200,
    );
  });
});

describe('writes from the app’s own origin, or an allowed one, are accepted', () => {
  it('same origin (Origin and Sec-Fetch-Site as a browser sends them)', async () => {
    const res = await addClass('From the app', { Origin: suite.server.url, 'Sec-Fetch-Site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(await classNames()).toContain('From the app');
  });

  it('an ALLOWED_ORIGINS origin', async () => {
    const res = await addClass('From the allowed origin', {
      Origin: ALLOWED,
      'Sec-Fetch-Site': 'cross-site',
    });
    expect(res.status).toBe(200);
    expect(await classNames()).toContain('From the allowed origin');
  });

  it('no browser at all (neither header: curl, a server) and a typed address (Sec-Fetch-Site: none)', async () => {
    expect((await addClass('From curl', {})).status).toBe(200);
    expect((await addClass('Typed address', { 'Sec-Fetch-Site': 'none' })).status).toBe(200);
  });

  it('reads from anywhere are not writes: a GET with a foreign Origin is answered', async () => {
    const res = await fetch(`${suite.server.apiRoot}/${P.list}`, {
      headers: { Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(res.status).toBe(200);
  });

  it('behind a trusted https proxy the own origin is https://', async () => {
    const proxied = await startTestServer({ settings: { trustProxy: 'loopback' } });
    try {
      const session = await signIn(proxied.apiRoot);
      const send = (origin: string) =>
        fetch(`${proxied.apiRoot}/${P.add}`, {
          method: 'POST',
          headers: {
            Cookie: session,
            'Content-Type': 'application/json',
            'X-Forwarded-Proto': 'https',
            Origin: origin,
          },
          body: JSON.stringify({ className: `Via ${origin}` }),
        });
      const host = new URL(proxied.url).host;
      expect((await send(`https://${host}`)).status).toBe(200);
      expect((await send(`http://${host}`)).status).toBe(403);
    } finally {
      await proxied.close();
    }
  }, 120_000);
});

describe('an auto-submitting form’s encodings are refused (415), nothing written', () => {
  const formBodies = (fields: Record<string, string>) => {
    const multipart = new FormData();
    for (const [k, v] of Object.entries(fields)) multipart.set(k, v);
    return [
      { type: 'text/plain', body: new Blob([`${Object.keys(fields)[0]}=x`], { type: 'text/plain' }) },
      { type: 'urlencoded', body: new URLSearchParams(fields) },
      { type: 'multipart', body: multipart },
    ];
  };

  it('on every JSON write endpoint: text/plain, urlencoded and multipart', async () => {
    const before = await snapshotServer(suite.server);
    const jsonWrites = entities
      .flatMap((e) => allEndpoints(e))
      .filter((ep) => ep.method === 'POST' && ep.encoding === 'json');
    expect(jsonWrites.length).toBeGreaterThan(20);
    for (const ep of jsonWrites) {
      const fields = Object.fromEntries([...ep.fields, ep.idParam ?? 'id'].map((f) => [f, '1']));
      for (const { type, body } of formBodies(fields)) {
        const res = await fetch(`${suite.server.apiRoot}/${ep.path}?${new URLSearchParams(ep.query)}`, {
          method: 'POST',
          headers: { Cookie: cookie },
          body,
        });
        expect(res.status, `${ep.path} ${type}`).toBe(415);
        expect(await res.json()).toMatchObject({ success: false });
      }
    }
    for (const [type, body] of [
      ['text/plain', '{"requests":[]}'],
      ['application/x-www-form-urlencoded', 'requests=1'],
    ])
      expect(
        (
          await fetch(`${suite.server.apiRoot}/sync/batch`, {
            method: 'POST',
            headers: { Cookie: cookie, 'Content-Type': type },
            body,
          })
        ).status,
      ).toBe(415);
    expect(await snapshotServer(suite.server)).toEqual(before);
  });

  it('on the multipart endpoints: text/plain and urlencoded (multipart is theirs)', async () => {
    const before = await snapshotServer(suite.server);
    const multipartWrites = entities
      .flatMap((e) => allEndpoints(e))
      .filter((ep) => ep.encoding === 'multipart');
    expect(multipartWrites.length).toBeGreaterThan(5);
    for (const ep of multipartWrites) {
      const fields = Object.fromEntries(ep.fields.map((f) => [f, '1']));
      for (const { type, body } of formBodies(fields).filter((f) => f.type !== 'multipart')) {
        const res = await fetch(`${suite.server.apiRoot}/${ep.path}?${new URLSearchParams(ep.query)}`, {
          method: 'POST',
          headers: { Cookie: cookie },
          body,
        });
        expect(res.status, `${ep.path} ${type}`).toBe(415);
        expect(await res.json()).toMatchObject({ success: false });
      }
    }
    expect(await snapshotServer(suite.server)).toEqual(before);
  });

  it('login takes JSON only', async () => {
    for (const body of [
      new URLSearchParams(ADMIN),
      new Blob([JSON.stringify(ADMIN)], { type: 'text/plain' }),
    ]) {
      const res = await fetch(`${suite.server.apiRoot}/${authEndpoints.login.path}`, {
        method: 'POST',
        body,
      });
      expect(res.status).toBe(415);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });
});
