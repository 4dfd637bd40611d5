/**
 * The one line a start that cannot go on ends with (commands/serve.ts): what is wrong and what to
 * look at, never a stack. Configuration and refusals carry their own message; the database's
 * failures are told by their code (node's for the network, PostgreSQL's SQLSTATE for the rest).
 */

/** A start that must not go on (a refused account, a refused bucket): its message is the line. */
export class StartRefused extends Error {}

/** DATABASE_URL without its password, to name the database in a message. */
export function safeDatabaseUrl(url: string | undefined): string {
  if (!url) return 'the embedded database';
  try {
    const u = new URL(url);
    u.password = '';
    return `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}

const firstLine = (text: string) => text.split('\n')[0].trim();

export function describeStartError(err: unknown, databaseUrl: string | undefined): string {
  const e = err as { code?: string; message?: string } | null;
  const message = firstLine(e?.message || String(err));
  const db = safeDatabaseUrl(databaseUrl);
  switch (e?.code) {
    case 'ECONNREFUSED':
      return `Cannot reach the database at ${db}: connection refused. Is PostgreSQL running there, and is DATABASE_URL right?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot reach the database at ${db}: its host name does not resolve (${message}).`;
    case 'ETIMEDOUT':
    case 'DB_TIMEOUT':
      return `Cannot reach the database at ${db}: no answer (${message}).`;
    case '28P01':
    case '28000':
      return `The database at ${db} refused the credentials of DATABASE_URL: ${message}.`;
    case '3D000':
      return `The database at ${db} does not exist: ${message}. Create it (createdb) or correct DATABASE_URL.`;
    case 'EADDRINUSE':
      return `Cannot listen: the port is in use (${message}). Set PORT to a free one.`;
    case 'EACCES':
      return `Cannot listen or write: permission denied (${message}).`;
    default:
      return `The server could not start: ${message}`;
  }
}
