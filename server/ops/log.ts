/**
 * The server's log: pino, one JSON object per line on stdout (time, level, pid, hostname,
 * msg, and whatever the line is about), for a log shipper to read as it is. In a terminal
 * (`npm start` by hand) the lines go through pino-pretty instead, when it is installed (a dev
 * dependency: a production install without it logs JSON there too).
 *
 * What is never logged: passwords, cookies' values, session ids, request bodies. Nothing
 * here logs headers or bodies at all; request lines carry a chosen few fields
 * (request-log.ts), and `redact` is a second line of defence for an error object that carries
 * one of these by accident.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const options = (level: LogLevel): pino.LoggerOptions => ({
  level,
  timestamp: pino.stdTimeFunctions.isoTime,
  // "level":"info" rather than pino's number: read by people and shippers alike.
  formatters: { level: (label) => ({ level: label }) },
  redact: {
    paths: ['password', '*.password', 'cookie', '*.cookie', 'headers.cookie', '*.headers.cookie'],
    censor: '[hidden]',
  },
});

/** Lines written to stdout together, at most this long after the first of them. */
const LOG_FLUSH_MS = 500;
const LOG_CHUNK_BYTES = 8 * 1024;

/**
 * stdout, written in chunks: a line per request, each its own write, was a tenth of a simple
 * write's CPU (bench/write-cost.mjs). Lines wait at most LOG_FLUSH_MS; whatever waits is
 * written when the process exits, a fatal error's line included (pino flushes on exit). Only
 * a process killed outright (SIGKILL) loses the last half second of lines.
 */
function chunkedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: LOG_CHUNK_BYTES });
  setInterval(() => stream.flush(), LOG_FLUSH_MS).unref();
  return stream;
}

/** The process's logger: JSON on stdout, or pretty lines when stdout is a terminal. */
export async function createLogger(level: LogLevel, pretty = process.stdout.isTTY === true): Promise<Logger> {
  if (pretty) {
    const stream = await prettyStream();
    if (stream) return pino(options(level), stream);
  }
  return pino(options(level), chunkedStdout());
}

async function prettyStream(): Promise<DestinationStream | null> {
  try {
    // A dev dependency: absent from a production install, which then logs JSON.
    const { default: pretty } = await import('pino-pretty');
    return pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', sync: true });
  } catch {
    return null;
  }
}

/** A logger writing to `stream` (tests read the lines back). */
export const streamLogger = (stream: DestinationStream, level: LogLevel = 'info'): Logger =>
  pino(options(level), stream);

/**
 * The logger of a server started by code without one (tests, tools): errors only, through
 * console.error, so that a failure still shows (and a test that provokes one can hush it)
 * and request lines do not flood a test run.
 */
export const quietLogger = (): Logger =>
  pino(options('error'), { write: (line: string) => console.error(line.trimEnd()) });
