/**
 * An edit form's link to its record's history on the audit trail screen (`/audit?entity=&id=`).
 * Absent while the record has only this device's temporary id: the server has no history of
 * it yet.
 */
import { Link } from '@tanstack/react-router';
import { recordHistory } from '../../app/audit/audit-search';
import type { EntityDescription } from '../../contract/entity';

export function HistoryLink({ entity, id }: { entity: EntityDescription; id: string }) {
  const search = recordHistory(entity, id);
  if (!search) return null;
  return (
    <p className="history-link">
      <Link to="/audit" search={search}>
        History of this {entity.names.one}
      </Link>
    </p>
  );
}
