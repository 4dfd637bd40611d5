/**
 * Vitest global setup of the projects that start servers on PGlite: makes, once per PGlite
 * version, a tarball of a cluster fresh from initdb and points PGLITE_PRISTINE at it
 * (server/db/pglite.ts), so that each new server copies it instead of running initdb (about
 * three seconds of a four-second start). Worker processes and the servers the tests spawn
 * inherit the variable.
 *
 * It also makes, once per run, two data folders at the current schema, one of them with the
 * demo data and its files, and points PGLITE_SCHEMA_FOLDER and PGLITE_DEMO_FOLDER at them: a
 * test server on a folder of its own starts from a copy (helpers/server.ts). Opening a folder
 * takes about a second, where loading the tarball, running every migration and seeding take
 * three to five, and the suites start hundreds of servers. The migrations and the seeding
 * still run from nothing in their own tests and in every server those tests start by hand.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DEFAULT_ADMIN, startServer } from '../../server/app/start';

async function pgliteVersion(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return JSON.parse(await readFile(join(dirname(entry), '..', 'package.json'), 'utf8')).version;
}

export default async function setup() {
  const tarball = join(tmpdir(), `pglite-pristine-${await pgliteVersion()}.tar`);
  if (!existsSync(tarball)) {
    const db = await PGlite.create();
    const dump = await db.dumpDataDir('none');
    await db.close();
    // Written aside then renamed: a run started meanwhile never reads half a file.
    const partial = `${tarball}.${process.pid}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, tarball);
  }
  process.env.PGLITE_PRISTINE = tarball;

  const folders = await Promise.all(
    ['schema', 'demo'].map((name) => mkdtemp(join(tmpdir(), `pglite-${name}-`))),
  );
  const [schemaFolder, demoFolder] = folders;
  for (const [dataDir, seedDemo] of [
    [schemaFolder, false],
    [demoFolder, true],
  ] as const) {
    const server = await startServer({ port: 0, dataDir, seedDemo, adminPassword: DEFAULT_ADMIN.password });
    await server.close();
  }
  process.env.PGLITE_SCHEMA_FOLDER = schemaFolder;
  process.env.PGLITE_DEMO_FOLDER = demoFolder;
  return () => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
}
