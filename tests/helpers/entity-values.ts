/**
 * Valid field values for any described entity, built from its description alone, so that a
 * generic server test covers a new entity as soon as it is listed: refs name the records the
 * test added before (parents first), texts say what they are, a required file is a small PNG.
 */
import type { EntityDescription, FieldSpec, Op } from '../../src/contract/entity';
import { wireFields } from '../../src/contract/entity';
import type { LocalValue } from '../../src/contract/wire-request';
import { pngFile } from './files';

/** `created`: the id of the record added for each entity so far, by entity name. */
export function valueFor(spec: FieldSpec, tag: string, created: ReadonlyMap<string, string>): LocalValue {
  if (spec.kind === 'ref') return created.get(spec.ref!)!;
  if (spec.kind === 'number') return 1;
  if (spec.kind === 'choice') return spec.choices![0].value;
  if (spec.kind === 'email') return `${tag}@example.org`;
  if (spec.kind === 'url') return `https://example.org/${tag}`;
  if (spec.kind === 'phone') return '+91 98765 43210';
  if (spec.location === 'country') return 'IN';
  if (spec.location === 'state') return 'MH';
  if (spec.location === 'city') return 'Mumbai';
  return `${spec.label} ${tag}`;
}

/** Valid values for an add or update: refs name the rows added before, texts say what they are. */
export function valuesFor(
  entity: EntityDescription,
  op: Op,
  tag: string,
  created: ReadonlyMap<string, string>,
): Record<string, LocalValue> {
  const values: Record<string, LocalValue> = {};
  for (const [name, spec] of wireFields(entity, op)) {
    if (spec.kind !== 'file') values[name] = valueFor(spec, tag, created);
    // A required file (a book page's image) goes as a small PNG.
    else if (spec.required && op === 'add') values[name] = pngFile(`${tag}.png`);
  }
  return values;
}
