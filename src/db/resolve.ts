/**
 * Temporary ids stay valid after the server has named the record: links, open forms and
 * queued entries made before the add succeeded still carry them. Every read goes through
 * the id map so they keep pointing at the same record.
 */
import type { LocalDb } from './database';
import { isTempId } from './ids';

export async function resolveId(db: LocalDb, id: string): Promise<string> {
  if (!isTempId(id)) return id;
  const mapped = await db.idmap.get(id);
  return mapped ? mapped.serverId : id;
}

/** A synchronous resolver over the whole id map (for building many requests at once). */
export async function loadIdResolver(db: LocalDb): Promise<(id: string) => string | null> {
  const map = new Map((await db.idmap.toArray()).map((m) => [m.tempId, m.serverId]));
  return (id) => (isTempId(id) ? (map.get(id) ?? null) : id);
}
