/**
 * The import's template: the header row (the Add form's fields in order, files left out) and
 * one example row an administrator overwrites.
 */
import type { EntityDescription, FieldSpec } from '../entity';
import { templateColumns } from './csv-columns';
import { csvText } from './write';

function example(spec: FieldSpec): string {
  if (spec.kind === 'email') return 'name@example.com';
  if (spec.kind === 'password') return 'Change-me-2024';
  if (spec.kind === 'phone') return '+91 98765 43210';
  if (spec.kind === 'status') return 'Enabled';
  if (spec.location === 'country') return 'IN';
  if (spec.location === 'state') return 'MH';
  if (spec.location === 'city') return 'Mumbai';
  if (spec.kind === 'ref' || spec.namesOf) return `${spec.label} name or ID`;
  if (spec.kind === 'number') return '1';
  if (spec.choices?.length) return spec.choices[0].value;
  return `Example ${spec.label.toLowerCase()}`;
}

export function templateText(entity: EntityDescription): string {
  const columns = templateColumns(entity);
  return csvText([columns.map((c) => c.header), columns.map((c) => example(entity.fields[c.field]))]);
}

export const templateFileName = (entity: EntityDescription) => `${entity.table}-template.csv`;
