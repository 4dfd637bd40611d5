/**
 * Duplicate Records (`/duplicates`, SETTINGS): the schools, teachers and students on this
 * device that share an e-mail with another of their kind, a group per address, each record a
 * link to its edit form. The server refuses new duplicates; these reached it before it did.
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { type DuplicateGroup, duplicateGroups } from '../app/duplicates';
import { encodeRouteId } from '../ui/route-id';
import { usePageTitle } from '../ui/use-page-title';

const TITLE = 'Duplicate Records';

function GroupView({ group }: { group: DuplicateGroup }) {
  const { entity, field, value, records } = group;
  const edit = entity.routes.edit;
  return (
    <li className="audit-entry">
      <p>
        <strong>{records.length}</strong> {entity.names.many} with {entity.fields[field].label}{' '}
        <strong>{value}</strong>
      </p>
      <ul className="duplicate-records">
        {records.map((record, i) => (
          <li key={record.id}>
            {edit ? (
              <Link to={`${edit}/${encodeRouteId(record.id)}`} className="button button-light">
                {record.title || `${entity.names.One} ${record.id}`}
              </Link>
            ) : (
              record.title
            )}{' '}
            <span className="muted">
              ID {record.id}
              {i === 0 ? ' · the first, kept' : ''}
            </span>
          </li>
        ))}
      </ul>
    </li>
  );
}

export function DuplicatesScreen() {
  usePageTitle(TITLE);
  const [groups, setGroups] = useState<DuplicateGroup[] | null>(null);
  useEffect(() => {
    let current = true;
    void duplicateGroups().then((found) => {
      if (current) setGroups(found);
    });
    return () => {
      current = false;
    };
  }, []);
  return (
    <section className="screen">
      <h1>{TITLE}</h1>
      <p className="muted">
        Schools, teachers and students that share an e-mail with another of their kind (compared without
        case). New duplicates are refused; these were saved before. Open each record to correct its e-mail, or
        delete the one not wanted.
      </p>
      {groups === null && (
        <p className="muted" role="status">
          Looking for duplicates…
        </p>
      )}
      {groups?.length === 0 && <p role="status">No two records share an e-mail.</p>}
      {groups && groups.length > 0 && (
        <ol className="audit-list">
          {groups.map((group) => (
            <GroupView key={`${group.entity.name} ${group.field} ${group.value}`} group={group} />
          ))}
        </ol>
      )}
    </section>
  );
}
