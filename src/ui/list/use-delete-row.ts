import { deleteBlockers, saveChange, setHolders } from '../../app/records';
import type { EntityDescription } from '../../contract/entity';
import { entityMessages } from '../../contract/messages';
import { stillUsedByCounts } from '../../contract/still-used';
import { useNotify } from '../notices';
import { reportOutcome } from '../report-outcome';
import { saveFailureDetail } from '../save-failure';

/**
 * The delete confirmation: the description's sentence, and for a record that others hold in a
 * set (a book assigned to schools, teachers, students) to how many of each it is assigned.
 */
async function deleteQuestion(entity: EntityDescription, key: string): Promise<string | null> {
  const held = (await setHolders(entity, key)).filter((h) => h.count > 0);
  if (held.length === 0) return entity.confirmDelete ?? null;
  const parts = held.map((h) => `${h.count} ${h.count === 1 ? h.entity.names.one : h.entity.names.many}`);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  const assigned = `It is assigned to ${list}; deleting it removes it from them.`;
  return entity.confirmDelete
    ? `${entity.confirmDelete} ${assigned}`
    : `Delete this ${entity.names.one}? ${assigned}`;
}

/**
 * A row's Delete: says at once when records on this device still belong to it (every kind, with
 * how many), else asks the confirmation naming the record, saves the delete and reports how it
 * went.
 */
export function useDeleteRow(entity: EntityDescription): (key: string, title?: string) => Promise<void> {
  const notify = useNotify();
  const notices = entityMessages(entity);
  return async (key: string, title?: string) => {
    const blockers = await deleteBlockers(entity, key);
    if (blockers.length > 0) {
      const children = blockers.map((b) => ({ names: b.child.names, count: b.count }));
      notify('error', notices.failedDelete, stillUsedByCounts(entity.names, children));
      return;
    }
    const question = await deleteQuestion(entity, key);
    if (question && !window.confirm(title ? `${question}\n\n${title}` : question)) return;
    try {
      const { entryId } = await saveChange({ op: 'delete', entity, key });
      await reportOutcome(notify, entryId, notices.deleted, notices.failedDelete);
    } catch (error) {
      notify('error', notices.failedDelete, saveFailureDetail(error));
    }
  };
}
