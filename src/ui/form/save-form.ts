/**
 * A checked form's save: its change (or one record per file, for an add taking several files)
 * goes to saveChange, and a save carrying files waits, online, for their uploads before the
 * form moves on. Throws what saveChange throws: nothing was saved then.
 */
import { type DeliveryOutcome, saveChange, saveSeveral } from '../../app/records';
import { awaitUploads, type UploadProgress } from '../../app/sync-status/upload-watch';
import type { EntityDescription, Op } from '../../contract/entity';
import { RESUMABLE_FROM_BYTES } from '../../contract/resumable';
import { severalField } from '../../contract/several-files';
import { hiddenInputs } from '../../contract/switched-inputs';
import { changeValues, type FormValues } from './form-values';

export interface FormSaved {
  /** The outbox entries carrying the change. */
  entryIds: string[];
  /** The new record the list opens at (an add shown in this entity's list). */
  reveal: string | undefined;
  /** The uploads' outcomes, when the form waited for them; else null (the entry is followed). */
  outcomes: DeliveryOutcome[] | null;
  /**
   * Whether the change carries a file large enough to travel ahead of its record (with its
   * progress); then how far their upload got while the form waited.
   */
  largeFiles: boolean;
  progress: UploadProgress[];
}

export async function saveForm(
  entity: EntityDescription,
  id: string | null,
  values: FormValues,
  shownBy: { fields: readonly string[]; code: string | null },
  /** Told the entries whose files are on their way, while the form waits for them. */
  onSending: (entryIds: string[]) => void,
): Promise<FormSaved> {
  const op: Op = id === null ? 'add' : 'update';
  const changed = changeValues(entity, op, values, hiddenInputs(entity, shownBy.fields, shownBy.code));
  const several = op === 'add' ? severalField(entity) : null;
  const files = several ? ((values[several.field] as readonly File[] | undefined) ?? []) : [];
  let saved: { entryId: string | null; key: string }[];
  if (several) saved = await saveSeveral(entity, changed, files);
  else
    saved = [
      id === null
        ? await saveChange({ op: 'add', entity, values: changed })
        : await saveChange({ op: 'update', entity, key: id, values: changed }),
    ];
  const entryIds = saved.map((s) => s.entryId).filter((e): e is string => e !== null);
  // Only a list of this entity can show the new record.
  const reveal = op === 'add' && !entity.routes.afterSave ? saved[0]?.key : undefined;
  const blobs = [...files, ...Object.values(changed).filter((v) => v instanceof Blob)];
  const largeFiles = blobs.some((b) => b.size > RESUMABLE_FROM_BYTES);
  if (blobs.length === 0 || !navigator.onLine || entryIds.length === 0)
    return { entryIds, reveal, outcomes: null, largeFiles, progress: [] };
  onSending(entryIds);
  return { entryIds, reveal, largeFiles, ...(await awaitUploads(entryIds, largeFiles)) };
}
