/**
 * Whether this server has an entity's extension operations (question edit), as a screen needs
 * to know before offering one: asked of the server when online, and remembered on the device
 * (db/known-extensions.ts, shared with what pulls learn) so that an offline screen knows what the
 * server said last.
 */
import type { EntityDescription } from '../contract/entity';
import { knownExtensions, markExtension } from '../db/known-extensions';
import { db, loadApi } from './window-context';

/** true: the server has the entity's extension endpoints; false: it has not; null: not known yet. */
export async function serverHasExtension(entity: EntityDescription): Promise<boolean | null> {
  const remembered = (await knownExtensions(db))[entity.name] ?? null;
  if (!navigator.onLine) return remembered;
  const { hasExtension } = await import('../sync/api/extension-probe');
  const answer = await hasExtension(await loadApi(), entity);
  if (answer === null) return remembered;
  await markExtension(db, entity.name, answer);
  return answer;
}
