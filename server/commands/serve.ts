/**
 * `node dist-server/index.js` (or `npm start`): the reference server configured from the
 * environment (server/app/config.ts; the README's "Configuration" lists every variable).
 *
 * Everything it says is a log line (server/ops/log.ts): JSON on stdout, pretty in a terminal.
 * A start that cannot go on (bad configuration, a database that cannot be reached or refuses
 * the credentials, a refused account) ends with ONE line saying why, and exit status 1.
 * SIGTERM and SIGINT shut down gracefully (server/ops/shutdown.ts); exit status 0 when every
 * request finished, 1 when some were cut at SHUTDOWN_TIMEOUT_SECONDS.
 */

import { ConfigError, type ProcessSettings, processSettingsFrom, serverOptionsFrom } from '../app/config';
import { DEFAULT_ADMIN, type RunningServer, startServer } from '../app/start';
import { isLoopbackHost } from '../http/client';
import { createLogger, type Logger } from '../ops/log';
import { describeStartError, StartRefused, safeDatabaseUrl } from '../ops/start-error';

const env = process.env;

let settings: ProcessSettings | undefined;
let settingsError: unknown;
try {
  settings = processSettingsFrom(env);
} catch (err) {
  settingsError = err;
}
const log = await createLogger(settings?.logLevel ?? 'info');

function startFailed(err: unknown): never {
  const known = err instanceof ConfigError || err instanceof StartRefused;
  if (!known) log.debug({ err }, 'start failed');
  log.fatal(known ? (err as Error).message : describeStartError(err, env.DATABASE_URL));
  process.exit(1);
}

// Whatever escapes every handler is logged as one line with its stack, then the process ends
// (the state after it is unknown); the supervisor or the balancer takes it from there.
process.on('uncaughtException', (err) => {
  log.fatal({ err }, 'uncaught exception');
  process.exit(1);
});
process.on('unhandledRejection', (err) => {
  log.fatal({ err }, 'unhandled rejection');
  process.exit(1);
});

async function start(): Promise<{ server: RunningServer; settings: ProcessSettings }> {
  if (settingsError || !settings) startFailed(settingsError);
  try {
    return { server: await startServer({ ...serverOptionsFrom(env), logger: log }), settings };
  } catch (err) {
    startFailed(err);
  }
}

const started = await start();
const { server } = started;
announce(log, server);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) {
    log.warn(`${signal} received again: exiting now`);
    process.exit(1);
  }
  stopping = true;
  const timing = started.settings.shutdown;
  log.info(
    { signal, delayMs: timing.delayMs, timeoutSeconds: timing.timeoutMs / 1000 },
    `${signal} received, shutting down: not ready from now on`,
  );
  // The last resort, should closing the pool hang on a connection a cut request held.
  setTimeout(() => {
    log.error('shutdown did not finish after its timeout: exiting');
    process.exit(1);
  }, timing.timeoutMs + 5000).unref();
  try {
    const { cut } = await server.shutdown(timing);
    if (cut > 0) {
      log.error({ cut }, `shut down at the timeout, cutting ${cut} request(s) still running`);
      process.exit(1);
    }
    log.info('shut down: every request finished');
    process.exit(0);
  } catch (err) {
    log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

function announce(log: Logger, server: RunningServer) {
  const adminUsername = env.ADMIN_USERNAME || DEFAULT_ADMIN.username;
  log.info(`Textbook admin is running at ${server.url} (API root ${server.apiRoot})`);
  log.info(
    `Storage: ${env.DATABASE_URL ? `PostgreSQL (${safeDatabaseUrl(env.DATABASE_URL)})` : `PGlite in ${env.DATA_DIR || './data'}`}`,
  );
  // Printing the password is only acceptable for the well-known demo default.
  log.info(
    env.ADMIN_PASSWORD
      ? `Sign in as ${adminUsername} with the password from ADMIN_PASSWORD`
      : `Sign in as ${adminUsername} / ${DEFAULT_ADMIN.password} (demo account; set ADMIN_USERNAME and ADMIN_PASSWORD to change it)`,
  );
  if (isLoopbackHost(env.HOST || '127.0.0.1'))
    log.info('Listening on this machine only: set HOST=0.0.0.0 (and ADMIN_PASSWORD) to serve other devices.');
  if (env.API_EXTENSIONS === 'off') log.info('API extensions are off: behaving like the plain PHP API.');
  // The log is written in chunks (ops/log.ts): whoever waits for the start hears it at once.
  log.flush();
}
