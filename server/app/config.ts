/**
 * The server's settings from the environment (README, "Configuration"). A value that makes no
 * sense stops the start with a message rather than being ignored.
 */

import { DEFAULT_RETENTION_DAYS } from '../api/idempotency';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../audit/store';
import { DEFAULT_SESSION_POLICY } from '../auth/sessions';
import { parseTrustProxy } from '../http/client';
import { originOf } from '../http/headers';
import { LOG_LEVELS, type LogLevel } from '../ops/log';
import type { ShutdownTiming } from '../ops/shutdown';
import { DEFAULT_TIMEOUTS } from '../ops/timeouts';
import { s3SettingsFrom } from '../storage/settings';
import { DEFAULT_PENDING_MB } from '../uploads/resumable';
import type { ServerOptions } from './start';

export class ConfigError extends Error {}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number, not '${raw}'`);
  return n;
}

function wholeOrZero(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new ConfigError(`${name} must be a whole number of 0 or more, not '${raw}'`);
  return n;
}

/** What the process needs besides the server's options: its log level and its shutdown. */
export interface ProcessSettings {
  logLevel: LogLevel;
  shutdown: ShutdownTiming;
}

/** LOG_LEVEL, SHUTDOWN_DELAY_MS, SHUTDOWN_TIMEOUT_SECONDS (README, "Operations"). */
export function processSettingsFrom(env: NodeJS.ProcessEnv): ProcessSettings {
  const level = env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not '${env.LOG_LEVEL}'`);
  const delayMs = wholeOrZero(env, 'SHUTDOWN_DELAY_MS', 0);
  const timeoutMs = positive(env, 'SHUTDOWN_TIMEOUT_SECONDS', 30) * 1000;
  if (delayMs >= timeoutMs)
    throw new ConfigError(
      `SHUTDOWN_DELAY_MS (${delayMs}) must be shorter than SHUTDOWN_TIMEOUT_SECONDS (${timeoutMs / 1000} s): the requests in flight need time to finish`,
    );
  return { logLevel: level as LogLevel, shutdown: { delayMs, timeoutMs } };
}

export function serverOptionsFrom(env: NodeJS.ProcessEnv): ServerOptions {
  let trustProxy: ServerOptions['trustProxy'];
  let apiOrigin: string | undefined;
  let s3: ServerOptions['s3'];
  try {
    trustProxy = parseTrustProxy(env.TRUST_PROXY);
    // The app's build setting: when it points at another origin, the app's CSP must allow it.
    apiOrigin = originOf(env.VITE_API_ROOT);
    s3 = s3SettingsFrom(env);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return {
    port: positive(env, 'PORT', 8080),
    host: env.HOST || '127.0.0.1',
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || undefined,
    adminUsername: env.ADMIN_USERNAME || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    allowDemoPassword: env.ALLOW_DEMO_PASSWORD === '1',
    requireAdminPassword: env.NODE_ENV === 'production',
    staticDir: env.STATIC_DIR || './dist',
    legacy: env.API_EXTENSIONS === 'off',
    // The demo data on a database this start creates; DEMO_DATA=off for a real install.
    seedDemo: env.DEMO_DATA !== 'off',
    trustProxy,
    apiOrigin,
    idempotencyRetentionDays: positive(env, 'IDEMPOTENCY_RETENTION_DAYS', DEFAULT_RETENTION_DAYS),
    s3,
    uploadPendingMb: positive(env, 'UPLOAD_PENDING_MB', DEFAULT_PENDING_MB),
    auditRetentionDays: positive(env, 'AUDIT_RETENTION_DAYS', DEFAULT_AUDIT_RETENTION_DAYS),
    // Origins besides the app's own whose pages may send writes, comma-separated.
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    sessions: {
      idleSeconds: positive(env, 'SESSION_IDLE_MINUTES', DEFAULT_SESSION_POLICY.idleSeconds / 60) * 60,
      maxSeconds: positive(env, 'SESSION_MAX_HOURS', DEFAULT_SESSION_POLICY.maxSeconds / 3600) * 3600,
    },
    metricsToken: env.METRICS_TOKEN || undefined,
    timeouts: {
      requestSeconds: positive(env, 'REQUEST_TIMEOUT_SECONDS', DEFAULT_TIMEOUTS.requestSeconds),
      uploadChunkSeconds: positive(env, 'UPLOAD_CHUNK_TIMEOUT_SECONDS', DEFAULT_TIMEOUTS.uploadChunkSeconds),
    },
  };
}
