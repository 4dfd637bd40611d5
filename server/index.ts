/**
 * `node dist-server/index.js` (or `npm start`): the reference server configured from the
 * environment (server/config.ts; the README's "Configuration" lists every variable).
 */
import { DEFAULT_ADMIN, startServer } from './app';
import { ConfigError, serverOptionsFrom } from './config';
import { isLoopbackHost, StartRefused } from './startup-guard';

const env = process.env;

async function start() {
  try {
    return await startServer(serverOptionsFrom(env));
  } catch (err) {
    if (!(err instanceof ConfigError || err instanceof StartRefused)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}

const server = await start();
const adminUsername = env.ADMIN_USERNAME || DEFAULT_ADMIN.username;

console.log(`Textbook admin is running at ${server.url} (API root ${server.apiRoot})`);
console.log(
  `Storage: ${env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${env.DATA_DIR || './data'}`}`,
);
// Printing the password is only acceptable for the well-known demo default.
console.log(
  env.ADMIN_PASSWORD
    ? `Sign in as ${adminUsername} with the password from ADMIN_PASSWORD`
    : `Sign in as ${adminUsername} / ${DEFAULT_ADMIN.password} (demo account; set ADMIN_USERNAME and ADMIN_PASSWORD to change it)`,
);
if (isLoopbackHost(env.HOST || '127.0.0.1'))
  console.log(
    'Listening on this machine only: set HOST=0.0.0.0 (and ADMIN_PASSWORD) to serve other devices.',
  );
if (env.API_EXTENSIONS === 'off') console.log('API extensions are off: behaving like the plain PHP API.');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received, shutting down`);
  try {
    await server.close();
    process.exit(0);
  } catch (err) {
    console.error('Shutdown failed:', err);
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
