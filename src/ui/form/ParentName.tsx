import { entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { parentName } from '../../contract/parent-names';
import { useRecord } from '../data';

/** The record a form inside one parent belongs to: 'Book: Sunrise English Reader 1'. */
export function ParentName({ entity, field, id }: { entity: EntityDescription; field: string; id: string }) {
  const spec = entity.fields[field];
  const parent = entityByName(spec.ref ?? '');
  const row = useRecord(parent, id);
  if (!row) return null;
  return (
    <p className="screen-parent">
      {spec.label}: <strong>{parentName(parent, row)}</strong>
    </p>
  );
}
