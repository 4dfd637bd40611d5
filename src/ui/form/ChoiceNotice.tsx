import { Link } from '@tanstack/react-router';
import { needsChoice } from '../../app/records';
import type { EntityDescription } from '../../contract/entity';
import { useLiveQuery } from '../live-query';

/**
 * On an edit form: this record's queued change met another made on the server meanwhile, and
 * the outbox is where the administrator chooses field by field.
 */
export function ChoiceNotice({ entity, id }: { entity: EntityDescription; id: string }) {
  const waits = useLiveQuery(() => needsChoice(entity, id), [entity, id]);
  if (!waits) return null;
  return (
    <p className="banner" role="status">
      <span>This {entity.names.one} was changed on the server since your change to it was saved here.</span>
      <Link to="/outbox" className="button button-small">
        Needs your choice
      </Link>
    </p>
  );
}
