/**
 * What `npm start` refuses: listening on the network while the account has
 * the demo password (unless ALLOW_DEMO_PASSWORD=1), and a fresh production install without
 * ADMIN_PASSWORD; and the settings it reads (server/app/config.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, serverOptionsFrom } from '../../../server/app/config';
import { startServer } from '../../../server/app/start';
import { isLoopbackHost } from '../../../server/http/client';
import { StartRefused } from '../../../server/ops/start-error';
import { api } from '../../helpers/server';

const LOGIN = 'Admin_access/login.php';
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'startup-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('settings from the environment', () => {
  it('default to loopback, the demo account allowed there, and the session limits', () => {
    const options = serverOptionsFrom({});
    expect(options).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      adminPassword: undefined,
      allowDemoPassword: false,
      requireAdminPassword: false,
      trustProxy: 'none',
      apiOrigin: undefined,
      sessions: { idleSeconds: 7200, maxSeconds: 43200 },
    });
  });

  it('read HOST, ALLOW_DEMO_PASSWORD, NODE_ENV, TRUST_PROXY, the session limits and VITE_API_ROOT', () => {
    const options = serverOptionsFrom({
      HOST: '0.0.0.0',
      ALLOW_DEMO_PASSWORD: '1',
      NODE_ENV: 'production',
      TRUST_PROXY: '10.0.0.2, ::1',
      SESSION_IDLE_MINUTES: '30',
      SESSION_MAX_HOURS: '8',
      VITE_API_ROOT: 'https://api.example.org/admin/fullmarks-server',
    });
    expect(options).toMatchObject({
      host: '0.0.0.0',
      allowDemoPassword: true,
      requireAdminPassword: true,
      trustProxy: ['10.0.0.2', '::1'],
      sessions: { idleSeconds: 1800, maxSeconds: 28800 },
      apiOrigin: 'https://api.example.org',
    });
    expect(serverOptionsFrom({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
  });

  it('stop the start on values that make no sense', () => {
    expect(() => serverOptionsFrom({ TRUST_PROXY: 'yes' })).toThrow(ConfigError);
    expect(() => serverOptionsFrom({ SESSION_IDLE_MINUTES: '0' })).toThrow(/SESSION_IDLE_MINUTES/);
    expect(() => serverOptionsFrom({ SESSION_MAX_HOURS: 'soon' })).toThrow(ConfigError);
  });

  it('tell loopback hosts from the others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.org'])
      expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('starting', () => {
  it('refuses a non-loopback address while the account has the demo password', async () => {
    const start = startServer({ host: '0.0.0.0', port: 0 });
    await expect(start).rejects.toBeInstanceOf(StartRefused);
    await expect(start).rejects.toThrow(/demo password.*ADMIN_PASSWORD.*ALLOW_DEMO_PASSWORD=1/s);
  });

  it('listens there when told to accept the risk', async () => {
    const server = await startServer({ host: '0.0.0.0', port: 0, allowDemoPassword: true });
    await server.close();
  });

  it('refuses a fresh production install without ADMIN_PASSWORD, saying to set it', async () => {
    const start = startServer({ dataDir: join(dataDir, 'prod'), port: 0, requireAdminPassword: true });
    await expect(start).rejects.toThrow(/set ADMIN_PASSWORD/);
    // With it, it starts; the next start needs it no more (the account exists).
    const first = await startServer({
      dataDir: join(dataDir, 'prod'),
      port: 0,
      requireAdminPassword: true,
      adminPassword: 'a long production password',
    });
    await first.close();
    const again = await startServer({ dataDir: join(dataDir, 'prod'), port: 0, requireAdminPassword: true });
    expect(
      (await api(again.apiRoot).post(LOGIN, { username: 'admin', password: 'a long production password' }))
        .status,
    ).toBe(200);
    await again.close();
  }, 60_000);

  it('replaces the demo password of an install that began as a demo with ADMIN_PASSWORD', async () => {
    const dir = join(dataDir, 'demo');
    await (await startServer({ dataDir: dir, port: 0 })).close();
    const server = await startServer({
      dataDir: dir,
      port: 0,
      host: '0.0.0.0',
      adminPassword: 'now a real one',
    });
    try {
      expect(
        (await api(server.apiRoot).post(LOGIN, { username: 'admin', password: 'admin123' })).status,
      ).toBe(401);
      expect(
        (await api(server.apiRoot).post(LOGIN, { username: 'admin', password: 'now a real one' })).status,
      ).toBe(200);
    } finally {
      await server.close();
    }
    // Any other password stays as it is: changing the environment does not reset it.
    const later = await startServer({ dataDir: dir, port: 0, adminPassword: 'something else' });
    try {
      expect(
        (await api(later.apiRoot).post(LOGIN, { username: 'admin', password: 'now a real one' })).status,
      ).toBe(200);
    } finally {
      await later.close();
    }
  }, 60_000);
});
