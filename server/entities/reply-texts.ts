/**
 * The success messages of write replies: the entity's own notices where the spec has them
 * ('Resource added successfully' for a library resource's add and edit), else the derived
 * ones, also where the app stays silent (book pages), since a reply always says what happened.
 */
import type { EntityDescription } from '../../src/contract/entity';
import { entityMessages, messages } from '../../src/contract/messages';

export function replyTexts(entity: EntityDescription): { added: string; updated: string; deleted: string } {
  const own = entityMessages(entity);
  const base = messages(entity.names);
  return {
    added: own.added ?? base.added,
    updated: own.updated ?? base.updated,
    deleted: own.deleted ?? base.deleted,
  };
}
