/**
 * A test server holding `students` more students (the scale seed, server/seed/scale.ts), seeded
 * as `npm run seed:scale` does it: the server stopped (PGlite is one process's), the seed on its
 * database, the server started again.
 */
import { openDatabase } from '../../server/db';
import { seedScale } from '../../server/seed/scale';
import { startTestServer, type TestServer, type TestServerOptions } from './server';

export async function startSeededServer(students: number, opts: TestServerOptions = {}): Promise<TestServer> {
  const server = await startTestServer({ seedDemo: true, ...opts });
  await server.stop();
  const db = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  try {
    await seedScale(db, { students });
  } finally {
    await db.close();
  }
  await server.start();
  return server;
}
