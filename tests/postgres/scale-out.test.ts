/**
 * Several server processes started at the same moment on one EMPTY PostgreSQL database:
 * every one becomes ready behind haproxy; the migrations ran once (an
 * advisory lock), the demo data was seeded once and the administrator created once. The
 * sync suites run through such a cluster in the scale-out project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/migrations';
import { type ClusterServer, startClusterServer } from '../helpers/cluster';
import { api, signIn } from '../helpers/server';

let cluster: ClusterServer;

beforeAll(async () => {
  cluster = await startClusterServer({ seedDemo: true }, 3);
});
afterAll(() => cluster?.close());

describe('three processes starting at once on an empty database', () => {
  it('all become ready; migrations, demo data and the account exist once', async () => {
    expect(cluster.processes).toHaveLength(3);
    const applied = await cluster.query<{ name: string; n: number }>(
      'SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name ORDER BY name',
    );
    expect(applied).toEqual(
      migrations.map((m) => ({ name: m.name, n: 1 })).sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect(await cluster.query('SELECT class_name FROM classes')).toHaveLength(12);
    expect(await cluster.query('SELECT username FROM admins')).toEqual([{ username: 'admin' }]);
    // One session, every process: round robin without stickiness.
    const client = api(cluster.apiRoot, await signIn(cluster.apiRoot));
    const pids = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const listed = await client.get('Masterfilter/Classes/fetchclasses.php');
      expect(listed.status).toBe(200);
      pids.add((await (await fetch(`${cluster.url}/healthz`)).json()).pid);
    }
    expect(pids.size).toBe(3);
  });
});
