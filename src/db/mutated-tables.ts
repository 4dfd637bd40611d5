/**
 * Which tables of a database a Dexie `storagemutated` event names: this context's writes, other
 * tabs', the service worker's (Dexie carries them across). The list engine, the list worker's
 * counts watches and the dashboard follow writes by table this way. No DOM.
 */
import Dexie from 'dexie';

/** The tables of `db` among the event's parts (`idb://<db>/<table>/...`). */
export function mutatedTables(db: Dexie, parts: Record<string, unknown>): Set<string> {
  const prefix = `idb://${db.name}/`;
  const tables = new Set<string>();
  for (const part of Object.keys(parts))
    if (part.startsWith(prefix)) tables.add(part.slice(prefix.length).split('/')[0]);
  return tables;
}

/**
 * Calls `listener` with the tables of `db` written, once after the turn in which they were
 * written (a save's row and outbox entry, or several writes in a row, make one call). Returns
 * the unsubscribe.
 */
export function followWrites(db: Dexie, listener: (tables: ReadonlySet<string>) => void): () => void {
  let moved = new Set<string>();
  const onMutated = (parts: Record<string, unknown>) => {
    const first = moved.size === 0;
    for (const table of mutatedTables(db, parts)) moved.add(table);
    if (!first || moved.size === 0) return;
    setTimeout(() => {
      const changed = moved;
      moved = new Set();
      listener(changed);
    }, 0);
  };
  Dexie.on('storagemutated', onMutated);
  return () => Dexie.on('storagemutated').unsubscribe(onMutated);
}
