/**
 * What this server can do beyond the PHP API, as the screens need to know it before offering
 * an operation that is our extension (question edit): asked of the server when online, and
 * remembered on the device so that an offline screen knows what the server said last.
 */
import type { EntityDescription } from '../contract/entity';
import { db, loadApi } from './context';

const key = (entity: EntityDescription) => `extension:${entity.name}`;

/** true: the server has the entity's extension endpoints; false: it has not; null: not known yet. */
export async function serverHasExtension(entity: EntityDescription): Promise<boolean | null> {
  const remembered = (await db.meta.get(key(entity)))?.value;
  if (!navigator.onLine) return typeof remembered === 'boolean' ? remembered : null;
  const { hasExtension } = await import('../sync/capabilities');
  const answer = await hasExtension(await loadApi(), entity);
  if (answer === null) return typeof remembered === 'boolean' ? remembered : null;
  await db.meta.put({ key: key(entity), value: answer });
  return answer;
}
