/**
 * The server's settings from the environment (README, "Configuration"). A value that makes no
 * sense stops the start with a message rather than being ignored.
 */
import type { ServerOptions } from './app';
import { DEFAULT_SESSION_POLICY } from './auth/sessions';
import { parseTrustProxy } from './http/client';
import { originOf } from './http/headers';

export class ConfigError extends Error {}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number, not '${raw}'`);
  return n;
}

export function serverOptionsFrom(env: NodeJS.ProcessEnv): ServerOptions {
  let trustProxy: ServerOptions['trustProxy'];
  let apiOrigin: string | undefined;
  try {
    trustProxy = parseTrustProxy(env.TRUST_PROXY);
    // The app's build setting: when it points at another origin, the app's CSP must allow it.
    apiOrigin = originOf(env.VITE_API_ROOT);
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
    seedDemo: true,
    trustProxy,
    apiOrigin,
    idempotencyRetentionDays: positive(env, 'IDEMPOTENCY_RETENTION_DAYS', 60),
    auditRetentionDays: positive(env, 'AUDIT_RETENTION_DAYS', 730),
    // Origins besides the app's own whose pages may send writes, comma-separated.
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    sessions: {
      idleSeconds: positive(env, 'SESSION_IDLE_MINUTES', DEFAULT_SESSION_POLICY.idleSeconds / 60) * 60,
      maxSeconds: positive(env, 'SESSION_MAX_HOURS', DEFAULT_SESSION_POLICY.maxSeconds / 3600) * 3600,
    },
  };
}
