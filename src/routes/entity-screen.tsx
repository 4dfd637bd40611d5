/**
 * The screens of an entity, by kind: loaded on demand with the full descriptions, so the
 * first load carries only the catalogue's routes. A screen override (overrides/) replaces the
 * generic screen where the spec differs.
 */
import type { ScreenKind } from '../contract/catalogue';
import { entityByName } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { columnViews } from '../ui/columns';
import { AddForm, EditForm } from '../ui/FormScreen';
import ListScreen from '../ui/ListScreen';
import { screenOverrides } from './overrides';
import { PlaceholderScreen } from './placeholder';

export default function EntityScreen({ entity: name, screen }: { entity: string; screen: ScreenKind }) {
  const entity = entityByName(name);
  const Override = screenOverrides[name]?.[screen];
  if (Override) return <Override entity={entity} />;
  switch (screen) {
    case 'list':
      return <ListScreen entity={entity} />;
    case 'add':
      return <AddForm entity={entity} />;
    case 'edit':
      return <EditForm entity={entity} />;
    case 'picker':
      return <PickerScreen entity={entity} />;
    default:
      return <PlaceholderScreen title={entity.names.Many} />;
  }
}

/**
 * The list of the parent records an entity lives inside (/bookpages: books), with the
 * picker's own columns, texts and links to the entity's screens inside each (Manage Book
 * Pages, + Add Pages).
 */
function PickerScreen({ entity }: { entity: EntityDescription }) {
  const within = entity.routes.within!;
  const picker = within.picker!;
  const parent = entityByName(entity.fields[within.field].ref!);
  const view = { ...parent, list: { ...parent.list, columns: picker.columns } };
  return (
    <ListScreen
      entity={parent}
      columns={columnViews(view)}
      texts={picker.texts}
      actions={{ header: 'Actions', items: picker.links }}
      withAdd={false}
    />
  );
}
