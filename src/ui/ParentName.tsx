import { entityByName } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { parentName } from '../contract/parent-names';
import { useRecord } from './data';

/**
 * The record a list or form inside one parent belongs to: 'Book: Sunrise English Reader 1',
 * named by the one definition of a parent's name (contract/parent-names.ts). A list says
 * when the parent is gone (`sayMissing`: its address names a deleted book); a form, which
 * cannot be reached that way, shows nothing.
 */
export function ParentName({
  entity,
  field,
  id,
  sayMissing = false,
}: {
  entity: EntityDescription;
  field: string;
  id: string;
  sayMissing?: boolean;
}) {
  const spec = entity.fields[field];
  const parent = entityByName(spec.ref ?? '');
  const row = useRecord(parent, id);
  if (row === undefined || (!row && !sayMissing)) return null;
  return (
    <p className="screen-parent">
      {spec.label}: <strong>{row ? parentName(parent, row) : `${parent.names.One} not found`}</strong>
    </p>
  );
}
