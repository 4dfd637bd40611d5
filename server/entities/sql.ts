/**
 * Turning entity descriptions into SQL. Table and column names come from the descriptions
 * (our own code, never the request), but are still checked and quoted so a typo in a
 * description fails loudly instead of producing odd SQL.
 */
import type { EntityDescription } from '../../src/contract/entity';

export function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`Unsafe SQL identifier in an entity description: ${name}`);
  return `"${name}"`;
}

/** Keys are serial (int4) columns: a larger id cannot exist, and comparing with it would raise an error. */
const MAX_KEY = 2_147_483_647;
export const keyInRange = (id: string) => Number(id) <= MAX_KEY;

/** A row as it goes on the wire: every column, minus passwords (design brief §4: never returned). */
export function toWireRow(entity: EntityDescription, row: Record<string, unknown>): Record<string, unknown> {
  const out = { ...row };
  for (const [name, spec] of Object.entries(entity.fields)) if (spec.kind === 'password') delete out[name];
  return out;
}

/** Columns a list may be ordered by: the key and every described field except secrets and files. */
export function sortableColumns(entity: EntityDescription): string[] {
  const fields = Object.entries(entity.fields).filter(([, s]) => s.kind !== 'password' && s.kind !== 'file');
  return [entity.key, ...fields.map(([name]) => name)];
}

/** For ILIKE: the search text matches literally, % and _ included. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * A WHERE clause built up condition by condition, with its positional parameters. In a
 * condition, each `$?` stands for the next of the values passed with it.
 */
export class Where {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  add(condition: string, ...values: unknown[]): this {
    let i = 0;
    const sql = condition.replace(/\$\?/g, () => {
      this.params.push(values[i++]);
      return `$${this.params.length}`;
    });
    if (i !== values.length)
      throw new Error(`Condition ${condition} takes ${i} values, got ${values.length}`);
    this.conditions.push(sql);
    return this;
  }

  toString(): string {
    return this.conditions.length > 0 ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

/**
 * An id compared with an integer column. The cast makes a well-formed id beyond int4 match
 * nothing instead of raising "out of range" (parseWireId allows up to 18 digits).
 */
export const idParam = '$?::bigint';
