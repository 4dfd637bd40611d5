/**
 * A record as an export line, in the columns the import reads back (csv-columns.ts): a parent by
 * its name where no other record of that entity has it, else by its id, so that importing the
 * export finds every row up to date.
 */
import type { EntityDescription } from '../entity';
import { type CsvColumn, exportColumns } from './csv-columns';
import { foldName } from './fold';
import { csvLine } from './write';

export type ExportRow = Record<string, unknown>;

export class ExportWriter {
  readonly columns: CsvColumn[];
  /** Per column, the parent entity a ref column names (null: the value as it is). */
  private readonly refs: (string | null)[];
  private readonly unique = new Map<string, Set<string>>();
  /** Per parent entity, each id's cell (its name or the id): worked out once, not once a row. */
  private readonly refCells = new Map<string, Map<string, string>>();

  /** `names`: the records of each parent entity the columns name, by id, with their titles. */
  constructor(
    entity: EntityDescription,
    private readonly names: (entity: string) => ReadonlyMap<string, string>,
  ) {
    this.columns = exportColumns(entity);
    this.refs = this.columns.map((c) => {
      const spec = entity.fields[c.field];
      return spec?.kind === 'ref' && spec.ref ? spec.ref : null;
    });
  }

  header(): string {
    return csvLine(this.columns.map((c) => c.header));
  }

  line(row: ExportRow): string {
    return this.lineOf(this.columns.map((c) => row[c.field]));
  }

  /** A line from its columns' values, in the columns' order. */
  lineOf(values: readonly unknown[]): string {
    const cells: string[] = new Array(this.columns.length);
    for (let i = 0; i < cells.length; i++) {
      const value = values[i];
      const text = value === null || value === undefined ? '' : String(value);
      const ref = this.refs[i];
      cells[i] = ref === null || text === '' ? text : this.refCell(ref, text);
    }
    return csvLine(cells);
  }

  /** A parent by its name where the name is unique, else by its id. */
  private refCell(entity: string, id: string): string {
    const cells = this.refCells.get(entity) ?? new Map<string, string>();
    this.refCells.set(entity, cells);
    let cell = cells.get(id);
    if (cell === undefined) {
      const name = this.names(entity).get(id);
      cell = name !== undefined && this.isUnique(entity, name) ? name : id;
      cells.set(id, cell);
    }
    return cell;
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
