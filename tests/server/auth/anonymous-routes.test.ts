/**
 * Every route the server mounts under /api refuses a request without a session
 * (401 JSON), except the two that exist to be reached without one (login and logout) and the
 * content folders of uploads, which are public by design (the student apps load them). The
 * list comes from the running server's own routes (server/http/mounted.ts), not from a list
 * written here, so a route added later is covered without touching this test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicUploadFolder, isUploadFolder, UPLOAD_FOLDERS } from '../../../server/storage/folders';
import { BATCH_PATH } from '../../../src/contract/batch';
import { allEndpoints, authEndpoints } from '../../../src/contract/endpoints';
import { entities } from '../../../src/contract/entities';
import { GEO_PREFIX } from '../../../src/contract/geography';
import { snapshotServer } from '../../helpers/db-snapshot';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seedDemo: true });
}, 120_000);
afterAll(() => server.close());

const API = '/api';
const PUBLIC = new Set(Object.values(authEndpoints).map((e) => `POST ${API}/${e.path}`));

/** A concrete path for a mounted pattern; uploads get a folder that needs a session. */
function concrete(pattern: string): string {
  return pattern
    .replace(':folder', 'teachers')
    .replace(':name', 'x.png')
    .replace(':country', 'IN')
    .replace(':state', 'KA')
    .replace(/\/\*$/, '/some-upload-id')
    .replace(/:[a-zA-Z]+/g, '1');
}

const mounted = () => server.routes.filter((r) => !PUBLIC.has(`${r.method} ${r.path}`));

describe('the mounted routes', () => {
  it('include every endpoint of the table, the batch, uploads, geography and resumable uploads', () => {
    const have = new Set(server.routes.map((r) => `${r.method} ${r.path}`));
    for (const ep of entities.flatMap((e) => allEndpoints(e)))
      expect(have, `${ep.method} ${ep.path}`).toContain(`${ep.method} ${API}/${ep.path}`);
    for (const route of [`POST ${API}/${BATCH_PATH}`, ...PUBLIC, `GET ${API}/uploads/:folder/:name`])
      expect(have).toContain(route);
    expect(server.routes.some((r) => r.path.startsWith(`${API}/${GEO_PREFIX}/`))).toBe(true);
    expect(server.routes.some((r) => r.method === 'PATCH')).toBe(true);
    expect(mounted().length).toBeGreaterThan(60);
  });

  it('every one refuses a request without a session, or with a forged one: 401 JSON, nothing written', async () => {
    const before = await snapshotServer(server);
    const checked: string[] = [];
    for (const route of mounted()) {
      const path = concrete(route.path);
      for (const cookie of [undefined, 'sid=forged-session-token']) {
        const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
        const withBody = route.method !== 'GET' && route.method !== 'HEAD' && route.method !== 'OPTIONS';
        if (withBody) headers['Content-Type'] = 'application/json';
        const res = await fetch(`${server.url}${path}`, {
          method: route.method,
          headers,
          body: withBody ? JSON.stringify({ className: 'Anonymous', class_id: 1, requests: [] }) : undefined,
        });
        const label = `${route.method} ${path}${cookie ? ' (forged)' : ''}`;
        expect(res.status, label).toBe(401);
        expect(res.headers.get('content-type'), label).toMatch(/^application\/json/);
        expect(await res.json(), label).toEqual({ success: false, message: 'Please sign in' });
      }
      checked.push(`${route.method} ${route.path}`);
    }
    expect(checked.length).toBe(mounted().length);
    expect(await snapshotServer(server)).toEqual(before);
  });

  it('uploads: people’s folders and unknown ones need a session, content folders are public', async () => {
    for (const folder of [...UPLOAD_FOLDERS, 'private', '..', 'etc']) {
      const res = await fetch(`${server.apiRoot}/uploads/${folder}/missing.png`);
      const expected = isUploadFolder(folder) && isPublicUploadFolder(folder) ? 404 : 401;
      expect(res.status, folder).toBe(expected);
      expect(await res.json()).toMatchObject({ success: false });
    }
  });
});
