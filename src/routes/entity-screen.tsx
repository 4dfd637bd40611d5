/**
 * The screens of an entity, by kind: loaded on demand with the full descriptions, so the
 * first load carries only the catalogue's routes. A screen override (overrides/) replaces the
 * generic screen where the spec differs. Forms of our extension entities say so where the
 * server lacks them (ExtensionGate).
 */
import { useEffect } from 'react';
import { firstScreenShown } from '../app/first-screen';
import type { ScreenKind } from '../contract/catalogue/entity-catalogue';
import { entityByName } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { screenTexts } from '../contract/messages';
import { AssignScreen } from '../ui/assign/AssignScreen';
import { columnViews } from '../ui/columns';
import { ExtensionGate } from '../ui/form/ExtensionGate';
import { AddForm, EditForm } from '../ui/form/FormScreen';
import { RoleGate } from '../ui/form/RoleGate';
import { ImportScreen } from '../ui/import-screen/ImportScreen';
import ListScreen from '../ui/list/ListScreen';
import { screenOverrides } from './overrides';
import { PlaceholderScreen } from './placeholder';

export default function EntityScreen({
  entity: name,
  screen,
  relation,
  path,
}: {
  entity: string;
  screen: ScreenKind;
  /** For a relation screen: which set it edits. */
  relation?: string;
  /** The route it was reached by (an alias route carries its note: /addterms). */
  path: string;
}) {
  const entity = entityByName(name);
  // A list says itself when its first page has painted (ui/data.ts); other screens at once.
  const list = screen === 'list' || screen === 'picker';
  useEffect(() => {
    if (!list) firstScreenShown();
  }, [list]);
  const Override = screenOverrides[name]?.[screen];
  if (Override) return <Override entity={entity} />;
  const texts = screenTexts(entity);
  switch (screen) {
    case 'list':
      return <ListScreen entity={entity} />;
    case 'add':
      return (
        <RoleGate entity={entity} title={texts.addTitle}>
          <ExtensionGate entity={entity} op="add" title={texts.addTitle}>
            <AddForm entity={entity} note={entity.routes.addAliases?.find((a) => a.path === path)?.note} />
          </ExtensionGate>
        </RoleGate>
      );
    case 'edit':
      return (
        <ExtensionGate entity={entity} op="update" title={texts.editTitle}>
          <EditForm entity={entity} />
        </ExtensionGate>
      );
    case 'relation':
      return relation ? (
        <RoleGate entity={entity} title={entity.relations?.[relation]?.label ?? entity.names.Many}>
          <AssignScreen entity={entity} relation={relation} />
        </RoleGate>
      ) : null;
    case 'picker':
      return <PickerScreen entity={entity} />;
    case 'import':
      return (
        <RoleGate entity={entity} title={`Import ${entity.names.Many}`}>
          <ImportScreen entity={entity} />
        </RoleGate>
      );
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
