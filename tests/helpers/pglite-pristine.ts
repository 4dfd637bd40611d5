/**
 * Vitest global setup of the projects that start servers on PGlite: makes, once per PGlite
 * version, a tarball of a cluster fresh from initdb and points PGLITE_PRISTINE at it
 * (server/db/pglite.ts), so that each new server copies it instead of running initdb (about
 * three seconds of a four-second start). Worker processes and the servers the tests spawn
 * inherit the variable.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

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
}
