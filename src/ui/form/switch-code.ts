/**
 * The inputs a chosen code shows on a form (switched-inputs.ts), the code read from the form
 * or from the chosen parent record.
 */
import { entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { switchCode } from '../../contract/switched-inputs';
import { useRecord } from '../data';

/** The code that decides which switched inputs appear: a value of the form, or a field of the chosen parent. */
export function useSwitchCode(entity: EntityDescription, values: Record<string, unknown>): string | null {
  const sw = entity.switched;
  const ref = sw?.parentField ? entity.fields[sw.field]?.ref : undefined;
  const parentEntity = ref ? entityByName(ref) : entity;
  const parentId = ref && sw ? String(values[sw.field] ?? '') : '';
  const parent = useRecord(parentEntity, parentId);
  return switchCode(entity, values, ref ? (parent ?? null) : null);
}
