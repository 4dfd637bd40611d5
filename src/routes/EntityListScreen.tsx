/** An entity's list with its screen-level extra columns; loaded on demand with the list screen. */
import type { EntityDescription } from '../contract/entity';
import ListScreen from '../ui/ListScreen';
import { listColumnOverrides } from './overrides';

export default function EntityListScreen({ entity }: { entity: EntityDescription }) {
  return <ListScreen entity={entity} extraColumns={listColumnOverrides[entity.name]} />;
}
