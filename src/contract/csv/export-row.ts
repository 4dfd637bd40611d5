/**
 * A record as an export line, in the columns the import reads back (columns.ts): a parent by
 * its name where no other record of that entity has it, else by its id, so that importing the
 * export finds every row up to date.
 */
import type { EntityDescription } from '../entity';
import { type CsvColumn, exportColumns } from './columns';
import { foldName } from './fold';
import { csvLine } from './write';

export type ExportRow = Record<string, unknown>;

export class ExportWriter {
  readonly columns: CsvColumn[];
  private readonly unique = new Map<string, Set<string>>();

  /** `names`: the records of each parent entity the columns name, by id, with their titles. */
  constructor(
    private readonly entity: EntityDescription,
    private readonly names: (entity: string) => ReadonlyMap<string, string>,
  ) {
    this.columns = exportColumns(entity);
  }

  header(): string {
    return csvLine(this.columns.map((c) => c.header));
  }

  line(row: ExportRow): string {
    return csvLine(this.columns.map((c) => this.cell(c, row)));
  }

  private cell(column: CsvColumn, row: ExportRow): string {
    const value = row[column.field];
    const text = value === null || value === undefined ? '' : String(value);
    const spec = this.entity.fields[column.field];
    if (spec?.kind !== 'ref' || !spec.ref || text === '') return text;
    const name = this.names(spec.ref).get(text);
    return name !== undefined && this.isUnique(spec.ref, name) ? name : text;
  }

  /** Whether a title names one record of its entity (folded, as the import compares). */
  private isUnique(entity: string, name: string): boolean {
    let unique = this.unique.get(entity);
    if (!unique) {
      const counts = new Map<string, number>();
      for (const n of this.names(entity).values())
        counts.set(foldName(n), (counts.get(foldName(n)) ?? 0) + 1);
      unique = new Set([...counts].filter(([, c]) => c === 1).map(([n]) => n));
      this.unique.set(entity, unique);
    }
    return unique.has(foldName(name));
  }
}
