/**
 * `node dist-server/index.js` (or `npm start`): the reference server configured from the
 * environment. PORT (8080), DATA_DIR (./data), DATABASE_URL (PostgreSQL instead of the
 * embedded PGlite), ADMIN_USERNAME / ADMIN_PASSWORD (admin / admin123), STATIC_DIR (./dist),
 * API_EXTENSIONS=off (behave like the plain PHP API).
 */
import { DEFAULT_ADMIN, startServer } from './app';

const env = process.env;
const adminUsername = env.ADMIN_USERNAME || DEFAULT_ADMIN.username;
const adminPassword = env.ADMIN_PASSWORD || DEFAULT_ADMIN.password;
const usingDefaultAccount = !env.ADMIN_PASSWORD;

const server = await startServer({
  port: Number(env.PORT || 8080),
  host: '0.0.0.0',
  dataDir: env.DATA_DIR || './data',
  databaseUrl: env.DATABASE_URL || undefined,
  adminUsername,
  adminPassword,
  staticDir: env.STATIC_DIR || './dist',
  legacy: env.API_EXTENSIONS === 'off',
  seedDemo: true,
});

console.log(`Textbook admin is running at ${server.url} (API root ${server.apiRoot})`);
console.log(
  `Storage: ${env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${env.DATA_DIR || './data'}`}`,
);
// Printing the password is only acceptable for the well-known demo default.
console.log(
  usingDefaultAccount
    ? `Sign in as ${adminUsername} / ${adminPassword} (demo account; set ADMIN_USERNAME and ADMIN_PASSWORD to change it)`
    : `Sign in as ${adminUsername} with the password from ADMIN_PASSWORD`,
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
