/**
 * What the list engine needs to know of an entity, taken from its description once: its
 * projection (the columns it holds), the fields the search box matches, the fields its lists
 * sort by and how they compare, its parents' names (shown, sorted and searched by the parent's
 * current title, which the engine holds in the parent's own projection), and the names of
 * choice codes.
 */
import type { EntityDescription } from '../../contract/entity';
import { type OrderKind, sortFields } from '../../contract/list-order';
import { parentNameColumn, parentNameFields } from '../../contract/parent-names';
import { type ListProjection, listProjection } from '../list-index/projection';

export interface EngineSpec {
  name: string;
  projection: ListProjection;
  /** The column children show this entity's rows by (contract/parent-names.ts). */
  title: string;
  search: readonly string[];
  /** Fields a list may sort by (the key among them), and how their values compare. */
  orders: Readonly<Record<string, OrderKind>>;
  defaultSort: { field: string; dir: 'asc' | 'desc' };
  pageSize: number;
  /** A parent's name column: shown from the parent's title, found by the ref field's id. */
  names: readonly { name: string; field: string; parent: string }[];
  /** Choice codes' names, per field. */
  choices: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export function engineSpec(entity: EntityDescription, all: readonly EntityDescription[]): EngineSpec {
  const names = parentNameFields(entity).filter(({ parent }) => all.some((e) => e.name === parent));
  const choices = Object.fromEntries(
    Object.entries(entity.fields)
      .filter(([, spec]) => spec.kind === 'choice' && spec.choices)
      .map(([field, spec]) => [
        field,
        Object.fromEntries((spec.choices ?? []).map((c) => [c.value, c.label])),
      ]),
  );
  return {
    name: entity.name,
    projection: listProjection(entity, all),
    title: parentNameColumn(entity),
    search: entity.list.search,
    orders: Object.fromEntries(sortFields(entity, all).map((o) => [o.field, o.kind])),
    defaultSort: entity.list.sort,
    pageSize: entity.list.pageSize,
    names,
    choices,
  };
}

/** Every entity with a list, by name. */
export function engineSpecs(all: readonly EntityDescription[]): Map<string, EngineSpec> {
  return new Map(all.filter((e) => !e.single).map((e) => [e.name, engineSpec(e, all)]));
}

/** The parents whose titles an entity's lists show. */
export const parentsOf = (spec: EngineSpec): string[] => [...new Set(spec.names.map((n) => n.parent))];
