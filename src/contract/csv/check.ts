/**
 * One CSV row checked against the entity's rules, as the import's preview shows it and its
 * queueing saves it: the values converted the way the forms save them (parents by name or id
 * as ids, a class by name or id as its name, a country and a state by name or code as codes,
 * the status as Enabled or Disabled), every problem with the field it is at, checked with the
 * forms' own rules (validation.ts `formProblems`), and whether a row with an ID already equals
 * the device's record. A row repeating an earlier row's e-mail is a problem at its own line;
 * the first stays.
 *
 * Pure: what the device knows (its rows by id, parents, countries and states) comes in as
 * `ImportLookups`, so the same code runs in the import worker and in tests.
 */
import type { EntityDescription, Op } from '../entity';
import type { Country, State } from '../geography';
import { uniqueRules } from '../unique';
import { formProblems } from '../validation';
import { type CsvColumn, type HeaderMatch, matchHeader } from './csv-columns';
import { csvMessages } from './csv-messages';
import { foldName } from './fold';

export type CsvRow = Record<string, unknown>;

export interface ImportLookups {
  /** The device's record of this entity with this id (after any temporary id was replaced). */
  row(id: string): CsvRow | undefined;
  /**
   * The device's record holding a value of a field unique across the entity (an e-mail, in
   * any case): a row without an ID that gives it is about that record, not a new one.
   */
  holder?(field: string, value: string): CsvRow | undefined;
  /** The records of another entity by id, with their titles (parents, a student's class). */
  names(entity: string): ReadonlyMap<string, string>;
  countries: readonly Country[];
  /** Every state of every country (`country_code` set). */
  states: readonly State[];
}

export interface RowProblem {
  /** The column's header as the template writes it ('Email'); 'ID' for the id. */
  field: string;
  problem: string;
  /** What the file gives there, as written ('' when nothing). */
  value?: string;
}

export interface CheckedRow {
  /** The file's line where the row starts (the header is line 1). */
  line: number;
  /** The record's title as the file gives it (a student's name), to say which row a problem is in. */
  name: string;
  op: Op;
  /** For an update: the record's key. */
  key?: string;
  /** What to save: every given field for an add, the changed ones for an update. */
  values: Record<string, string>;
  /** A status to set through the entity's status action, when it differs (or an add is Disabled). */
  status?: string;
  /** An update that changes nothing. */
  upToDate: boolean;
  /** A row without an ID about an existing record, found by its e-mail (`ImportLookups.holder`). */
  matched?: boolean;
  problems: RowProblem[];
}

interface NameIndex {
  byId: ReadonlyMap<string, string>;
  byName: Map<string, string[]>;
}

const STATUS_VALUES = ['Enabled', 'Disabled'];

export class RowChecker {
  readonly match: HeaderMatch;
  private readonly indexes = new Map<string, NameIndex>();
  private readonly seen = new Map<string, Map<string, number>>();
  private readonly countryByName = new Map<string, string>();
  private readonly statesOf = new Map<string, { byName: Map<string, string>; codes: Set<string> }>();

  constructor(
    readonly entity: EntityDescription,
    header: readonly string[],
    private readonly lookups: ImportLookups,
  ) {
    this.match = matchHeader(entity, header);
    for (const c of lookups.countries) {
      this.countryByName.set(foldName(c.name), c.iso2);
      this.countryByName.set(foldName(c.iso2), c.iso2);
    }
    for (const s of lookups.states) {
      const code = s.country_code ?? '';
      const of = this.statesOf.get(code) ?? { byName: new Map(), codes: new Set() };
      of.byName.set(foldName(s.name), s.iso2);
      of.byName.set(foldName(s.iso2), s.iso2);
      of.codes.add(s.iso2);
      this.statesOf.set(code, of);
    }
  }

  /** The columns that fill a field, in file order. */
  get columns(): CsvColumn[] {
    return this.match.columns.filter((c): c is CsvColumn => c !== null);
  }

  private index(entity: string): NameIndex {
    let found = this.indexes.get(entity);
    if (!found) {
      const byId = this.lookups.names(entity);
      const byName = new Map<string, string[]>();
      for (const [id, name] of byId) {
        const key = foldName(name);
        const ids = byName.get(key);
        if (ids) ids.push(id);
        else byName.set(key, [id]);
      }
      found = { byId, byName };
      this.indexes.set(entity, found);
    }
    return found;
  }

  /** A parent named by id or by name: its id, or the problem. */
  private record(entity: string, label: string, value: string): { id: string } | { problem: string } {
    const { byId, byName } = this.index(entity);
    if (byId.has(value)) return { id: value };
    const ids = byName.get(foldName(value)) ?? [];
    if (ids.length === 1) return { id: ids[0] };
    return {
      problem: ids.length
        ? csvMessages.parentAmbiguous(label, value)
        : csvMessages.parentNotFound(label, value),
    };
  }

  /**
   * The row's values as the store holds them: statuses in their canonical case, parents and
   * names by id, the country by its code ('?' when unknown); a value that cannot be read is a
   * problem instead.
   */
  private readValues(
    given: Readonly<Record<string, string>>,
    problems: RowProblem[],
  ): { values: Record<string, string>; status: string | undefined; country: string } {
    const { entity } = this;
    const values: Record<string, string> = {};
    let status: string | undefined;
    let country = '';
    for (const [field, raw] of Object.entries(given)) {
      const spec = entity.fields[field];
      if (raw === '') {
        values[field] = '';
        continue;
      }
      if (spec.kind === 'status') {
        const canonical = STATUS_VALUES.find((s) => s.toLowerCase() === raw.toLowerCase());
        if (canonical) status = canonical;
        else problems.push({ field: spec.label, problem: csvMessages.status(spec.label) });
        continue;
      }
      if (spec.kind === 'ref' && spec.ref) {
        const found = this.record(spec.ref, spec.label, raw);
        if ('id' in found) values[field] = found.id;
        else problems.push({ field: spec.label, problem: found.problem });
        continue;
      }
      if (spec.namesOf) {
        const found = this.record(spec.namesOf, spec.label, raw);
        if ('id' in found) values[field] = this.index(spec.namesOf).byId.get(found.id) ?? raw;
        else problems.push({ field: spec.label, problem: found.problem });
        continue;
      }
      if (spec.location === 'country' && this.countryByName.size > 0) {
        const code = this.countryByName.get(foldName(raw));
        if (code) values[field] = country = code;
        else {
          problems.push({ field: spec.label, problem: csvMessages.countryNotFound(raw) });
          country = '?';
        }
        continue;
      }
      values[field] = raw;
    }
    return { values, status, country };
  }

  /** Checks one data row (cells in file order) starting at `line`. */
  check(cells: readonly string[], line: number): CheckedRow {
    const { entity } = this;
    const problems: RowProblem[] = [];
    const given: Record<string, string> = {};
    this.match.columns.forEach((column, i) => {
      if (column && column.kind !== 'readonly') given[column.field] = (cells[i] ?? '').trim();
    });

    const written = { ...given };
    const givenId = given[entity.key] ?? '';
    delete given[entity.key];
    const found = givenId ? undefined : this.holderOf(given);
    const matched = found?.row;
    if (found) {
      // Found by its e-mail in any case: that is no change of the e-mail. And it keeps its
      // password: the device never holds it, so a password in the file would make every such
      // row a change, and a file imported twice would change every record again.
      given[found.field] = String(found.row[found.field] ?? '');
      for (const [f, spec] of Object.entries(entity.fields)) if (spec.kind === 'password') delete given[f];
    }
    const id = givenId || (matched ? String(matched[entity.key]) : '');
    const current = givenId ? this.lookups.row(givenId) : matched;
    if (givenId && !current)
      problems.push({ field: 'ID', problem: csvMessages.unknownId(entity.names.one, givenId) });
    const op: Op = id ? 'update' : 'add';

    const { values, status, country } = this.readValues(given, problems);
    const stateField = Object.keys(given).find((f) => entity.fields[f].location === 'state');
    const countryField = Object.keys(entity.fields).find((f) => entity.fields[f].location === 'country');
    if (stateField && values[stateField] && country !== '?') {
      const inCountry = country || (countryField ? String(current?.[countryField] ?? '') : '');
      const states = this.statesOf.get(inCountry);
      if (states) {
        const code = states.byName.get(foldName(values[stateField]));
        if (code) values[stateField] = code;
        else
          problems.push({
            field: entity.fields[stateField].label,
            problem: csvMessages.stateNotFound(values[stateField], inCountry),
          });
      }
    }

    // The forms' rules on the record as it would be: the file's values over the device's row.
    // A row naming no known record, or an unknown country (its state cannot be read), says only that.
    const known = new Set(problems.map((p) => p.field));
    if (country === '?' && stateField) known.add(entity.fields[stateField].label);
    const whole = op === 'update' ? { ...stringsOf(current), ...values } : values;
    for (const p of id && !current ? [] : formProblems(entity, op, whole)) {
      const spec = entity.fields[p.field];
      // Refs and names already checked; a field absent from the file is only missing on add.
      if (known.has(spec.label)) continue;
      problems.push({ field: spec.label, problem: p.message });
    }
    problems.push(...this.repeats(values, line));

    const changed = op === 'update' ? changedValues(entity, values, current) : values;
    const statusChanged =
      status !== undefined &&
      (op === 'update' ? status !== String(current?.status ?? '') : status !== 'Enabled');
    const upToDate = op === 'update' && Object.keys(changed).length === 0 && !statusChanged;
    return {
      line,
      name: written[entity.title] ?? '',
      op,
      ...(op === 'update' && current ? { key: id } : {}),
      values: changed,
      ...(statusChanged ? { status } : {}),
      upToDate,
      ...(matched ? { matched: true } : {}),
      problems: problems.map((p) => ({ ...p, value: this.writtenAt(written, p.field) })),
    };
  }

  /** What the file gives in the column of a problem (named by its label, or 'ID'). */
  private writtenAt(written: Readonly<Record<string, string>>, label: string): string {
    if (label === 'ID') return written[this.entity.key] ?? '';
    const field = Object.keys(this.entity.fields).find((f) => this.entity.fields[f].label === label);
    return field ? (written[field] ?? '') : '';
  }

  /** The record a row without an ID names by a value unique across the entity, and that field. */
  private holderOf(given: Readonly<Record<string, string>>): { row: CsvRow; field: string } | undefined {
    const { holder } = this.lookups;
    if (!holder) return undefined;
    for (const rule of uniqueRules(this.entity)) {
      const value = given[rule.field];
      const row = rule.within === null && value ? holder(rule.field, value) : undefined;
      if (row) return { row, field: rule.field };
    }
    return undefined;
  }

  /** E-mails (and unique fields) repeating an earlier row of the file: a problem here, the first is kept. */
  private repeats(values: Record<string, string>, line: number): RowProblem[] {
    const out: RowProblem[] = [];
    for (const [field, value] of Object.entries(values)) {
      const spec = this.entity.fields[field];
      if (!value || (spec.kind !== 'email' && !spec.unique)) continue;
      const seen = this.seen.get(field) ?? new Map<string, number>();
      this.seen.set(field, seen);
      const key = spec.kind === 'email' ? value.toLowerCase() : value;
      const first = seen.get(key);
      if (first !== undefined)
        out.push({ field: spec.label, problem: csvMessages.repeats(spec.label, first) });
      else seen.set(key, line);
    }
    return out;
  }
}

function stringsOf(row: CsvRow | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(row ?? {}))
    if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
  return out;
}

/** The given values that differ from the record (an empty password keeps the current one). */
function changedValues(
  entity: EntityDescription,
  values: Record<string, string>,
  current: CsvRow | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(values)) {
    if (entity.fields[field]?.kind === 'password' && value === '') continue;
    if (value !== String(current?.[field] ?? '').trim()) out[field] = value;
  }
  return out;
}
