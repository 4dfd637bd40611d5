/**
 * The screens of an entity, by kind: loaded on demand with the full descriptions, so the
 * first load carries only the catalogue's routes. A screen override (overrides/) replaces the
 * generic screen where the spec differs.
 */
import type { ScreenKind } from '../contract/catalogue';
import { entityByName } from '../contract/entities';
import { AssignScreen } from '../ui/AssignScreen';
import { AddForm, EditForm } from '../ui/FormScreen';
import ListScreen from '../ui/ListScreen';
import { screenOverrides } from './overrides';
import { PlaceholderScreen } from './placeholder';

export default function EntityScreen({
  entity: name,
  screen,
  relation,
}: {
  entity: string;
  screen: ScreenKind;
  /** For a relation screen: which set it edits. */
  relation?: string;
}) {
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
    case 'relation':
      return relation ? <AssignScreen entity={entity} relation={relation} /> : null;
    default:
      return <PlaceholderScreen title={entity.names.Many} />;
  }
}
