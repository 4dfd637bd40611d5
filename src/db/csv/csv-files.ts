/**
 * The import's and the export's work on the device, run in the CSV worker
 * (src/csv-worker.ts) and in tests: a file checked against the device's rows, the refused
 * lines of an import as a CSV with an `error` column, a list's rows as an export.
 */
import { type ImportLookups, RowChecker } from '../../contract/csv/check';
import { type HeaderMatch, matchHeader } from '../../contract/csv/csv-columns';
import { csvMessages } from '../../contract/csv/csv-messages';
import { ExportWriter } from '../../contract/csv/export-row';
import { parseAll, parseCsv } from '../../contract/csv/parse';
import { BOM, csvLine } from '../../contract/csv/write';
import { entities, entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { type Country, geoPaths, type State } from '../../contract/geography';
import { type UniqueRule, uniqueRules, uniqueValue } from '../../contract/unique';
import type { LocalDb, Row } from '../database';
import { KEY_COLUMN } from '../list-index/chunk';
import { ensureListIndex } from '../list-index/middleware';
import { listProjection } from '../list-index/projection';
import { INDEX_STORES, readColumn, readHead } from '../list-index/read';
import { titlesOf } from '../reads/relation-reads';
import { readReference } from '../reference-lists';
import { measurer } from '../user-timing';
import type { ImportFile, ReadyRow } from './imports';

export interface FileProblem {
  line: number;
  /** The row's record as the file names it (a student's name). */
  name: string;
  field: string;
  /** What the file gives there. */
  value: string;
  problem: string;
}

/** A row left out at the preview, with its problems in one sentence each. */
export interface SkippedRow {
  line: number;
  problem: string;
}

/** The rows left out at the preview, from its problems, one per line in file order. */
export function skippedRows(problems: readonly FileProblem[]): SkippedRow[] {
  const byLine = new Map<number, string[]>();
  for (const p of problems) byLine.set(p.line, [...(byLine.get(p.line) ?? []), p.problem]);
  return [...byLine].map(([line, said]) => ({ line, problem: said.join('; ') }));
}

export interface FileCheck {
  /** Data rows in the file. */
  total: number;
  /** Rows that will be queued. */
  ready: number;
  /** Rows with an ID equal to the device's record. */
  upToDate: number;
  /**
   * Rows without an ID that name an existing record by its e-mail: how many would change it
   * (among `ready`) and how many equal it (among `upToDate`).
   */
  matched: { update: number; unchanged: number };
  problems: FileProblem[];
  /** Headers naming no field, ignored. */
  unknown: string[];
}

/** Reads in one go every record of the entities a file's rows name by id or by name. */
async function namesReader(db: LocalDb) {
  const names = new Map<string, Map<string, string>>();
  return {
    load: async (entity: string) => {
      if (!names.has(entity)) names.set(entity, await titlesOf(db, entityByName(entity)));
    },
    get: (entity: string): ReadonlyMap<string, string> => names.get(entity) ?? new Map(),
  };
}

const namedEntities = (entity: EntityDescription) =>
  Object.values(entity.fields).flatMap((s) => (s.ref ? [s.ref] : s.namesOf ? [s.namesOf] : []));

/**
 * By field unique across the entity (an e-mail), the device's record holding each value given
 * by the file's rows without an ID (`columns`: the header's match), read through the field's
 * index; `holder` answers by the value as the rule compares it (uniqueValue).
 */
async function holdersByUniqueValue(
  db: LocalDb,
  entity: EntityDescription,
  columns: HeaderMatch['columns'],
  parsed: readonly { cells: readonly string[] }[],
): Promise<(field: string, value: string) => Row | undefined> {
  const idAt = columns.findIndex((c) => c?.kind === 'id');
  const byField = new Map<string, { rule: UniqueRule; byValue: Map<string, Row> }>();
  for (const rule of uniqueRules(entity).filter((r) => r.within === null)) {
    const at = columns.findIndex((c) => c?.kind !== 'id' && c?.field === rule.field);
    if (at < 0) continue;
    const values = new Set<string>();
    for (const { cells } of parsed)
      if (idAt < 0 || !(cells[idAt] ?? '').trim()) values.add((cells[at] ?? '').trim());
    values.delete('');
    const index = db.rows(entity).where(rule.field);
    const found = await (rule.caseless
      ? index.anyOfIgnoreCase([...values])
      : index.anyOf([...values])
    ).toArray();
    const byValue = new Map<string, Row>();
    for (const row of found) {
      const value = uniqueValue(row[rule.field], rule.caseless);
      if (value !== null && !byValue.has(value)) byValue.set(value, row);
    }
    byField.set(rule.field, { rule, byValue });
  }
  return (field, value) => {
    const held = byField.get(field);
    const key = held ? uniqueValue(value, held.rule.caseless) : null;
    return key === null ? undefined : held?.byValue.get(key);
  };
}

/** Checks a file against the entity's rules and the device's rows: the preview and the rows to queue. */
export async function checkFile(
  db: LocalDb,
  entity: EntityDescription,
  text: string,
): Promise<{ check: FileCheck; rows: ReadyRow[] }> {
  const { header, rows: parsed } = parseAll(text);
  if (header.length === 0)
    return {
      check: {
        total: 0,
        ready: 0,
        upToDate: 0,
        matched: { update: 0, unchanged: 0 },
        problems: [{ line: 1, name: '', field: '', value: '', problem: csvMessages.noColumns }],
        unknown: [],
      },
      rows: [],
    };
  // The device's records the file names by ID, read once.
  const match = matchHeader(entity, header);
  const idAt = match.columns.findIndex((c) => c?.kind === 'id');
  const ids = idAt < 0 ? [] : [...new Set(parsed.map((r) => (r.cells[idAt] ?? '').trim()).filter(Boolean))];
  const found = await db.rows(entity).bulkGet(ids);
  const byId = new Map<string, Row>();
  ids.forEach((id, i) => {
    const row = found[i];
    if (row) byId.set(id, row);
  });
  const names = await namesReader(db);
  for (const e of namedEntities(entity)) await names.load(e);
  const holder = await holdersByUniqueValue(db, entity, match.columns, parsed);
  const lookups: ImportLookups = {
    row: (id) => byId.get(id),
    holder,
    names: names.get,
    countries: (await readReference<Country>(db, geoPaths.countries())) ?? [],
    states: (await readReference<State>(db, geoPaths.allStates())) ?? [],
  };
  const checker = new RowChecker(entity, header, lookups);
  const problems: FileProblem[] = [];
  const rows: ReadyRow[] = [];
  let upToDate = 0;
  const matched = { update: 0, unchanged: 0 };
  for (const { cells, line } of parsed) {
    const checked = checker.check(cells, line);
    if (checked.problems.length)
      for (const p of checked.problems) problems.push({ line, name: checked.name, value: '', ...p });
    else if (checked.upToDate) {
      upToDate++;
      if (checked.matched) matched.unchanged++;
    } else {
      const { op, key, values, status } = checked;
      rows.push({ line, op, key, values, status, ...(checked.matched ? { matched: true } : {}) });
      if (checked.matched) matched.update++;
    }
  }
  if (parsed.length === 0)
    problems.push({ line: 2, name: '', field: '', value: '', problem: csvMessages.noRows });
  return {
    check: {
      total: parsed.length,
      ready: rows.length,
      upToDate,
      matched,
      problems,
      unknown: checker.match.unknown,
    },
    rows,
  };
}

/**
 * The lines of an import that were not imported, as they were in the file, with why in an added
 * `problem` column: those left out at the preview (the file's problems) and those the server
 * refused (its words), in file order.
 */
export function refusedRowsCsv(
  file: ImportFile,
  refused: readonly { line: number; error: string }[],
): string {
  const why = new Map<number, string>((file.skipped ?? []).map((r) => [r.line, r.problem]));
  for (const r of refused) why.set(r.line, r.error);
  let out = '';
  parseCsv(
    file.text,
    (header) => {
      out = BOM + csvLine([...header, 'problem']);
    },
    (rows) => {
      for (const r of rows) if (why.has(r.line)) out += csvLine([...r.cells, why.get(r.line)]);
    },
  );
  return out;
}

/** The export's measures ('export lines'), which the import-export benchmark prints. */
const mark = measurer('export');

/** Keys read by key a request, when the export is a small share of the table. */
const BY_KEY = 2000;
/** Rows a range read answers. */
const RANGE_ROWS = 2500;
/** Lines a part of the file holds (the file is handed on as parts, never one 11 MB string). */
const PART_LINES = 2000;

/**
 * Each key's line from the list index (list-index/), which holds every column of a list and so
 * of its export: the key column and the export's columns in one range read each, a few hundred
 * cheap records instead of a hundred thousand rows (the rows' read alone took 4-7 s at 100,000
 * students, 4,635-7,783 ms against 4,194-7,242 ms for IndexedDB's own getAll of them, the same
 * runs). Null when the index does not hold every column (then the rows are read).
 */
async function linesFromIndex(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
  writer: ExportWriter,
): Promise<Map<string, string> | null> {
  const projection = listProjection(entity, entities);
  const fields = writer.columns.map((c) => c.field);
  if (!fields.every((f) => f === projection.key || projection.fields.includes(f))) return null;
  const started = performance.now();
  await ensureListIndex(db, projection);
  const { head, columns } = await db.transaction('r', INDEX_STORES, async () => {
    const head = await readHead(db, projection.table);
    const read = [KEY_COLUMN, ...fields.filter((f) => f !== projection.key)];
    const columns = head ? await Promise.all(read.map((f) => readColumn(db, head, f))) : [];
    return { head, columns: new Map(read.map((f, i) => [f, columns[i]])) };
  });
  mark('index read', started);
  const lines = new Map<string, string>();
  if (!head) return lines;
  const wanted = new Set(keys);
  const keyColumn = columns.get(KEY_COLUMN) ?? new Map<number, string[]>();
  const values: (string | undefined)[] = new Array(fields.length);
  for (const [n, chunkKeys] of keyColumn) {
    const cells = fields.map((f) => (f === projection.key ? chunkKeys : (columns.get(f)?.get(n) ?? [])));
    chunkKeys.forEach((key, j) => {
      if (!wanted.has(key)) return;
      for (let i = 0; i < fields.length; i++) values[i] = cells[i][j];
      lines.set(key, writer.lineOf(values));
    });
  }
  return lines;
}

/**
 * Each key's line, from the rows. A large share of the table is read in key ranges (IndexedDB's getAll
 * answers thousands of rows a request, where a read by key is one request a row, each costing
 * far more than the row it carries): the ranges are cut from the wanted keys in the
 * store's order, all asked at once in one read transaction, and each answer is formatted as it
 * arrives, while the store reads the next. A few rows are read by key.
 */
async function linesOf(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
  line: (row: Row) => string,
  byKey: boolean,
): Promise<Map<string, string>> {
  const table = db.rows(entity);
  const lines = new Map<string, string>();
  const wanted = new Set(keys);
  const take = (rows: readonly (Row | undefined)[]) => {
    for (const row of rows) {
      if (!row) continue;
      const key = String(row[entity.key]);
      if (wanted.has(key)) lines.set(key, line(row));
    }
  };
  if (byKey) {
    for (let i = 0; i < keys.length; i += BY_KEY) take(await table.bulkGet(keys.slice(i, i + BY_KEY)));
    return lines;
  }
  // The store orders string keys by code unit, as a plain sort does.
  const sorted = [...wanted].sort();
  const ranges: [string, string][] = [];
  for (let i = 0; i < sorted.length; i += RANGE_ROWS)
    ranges.push([sorted[i], sorted[Math.min(i + RANGE_ROWS, sorted.length) - 1]]);
  await db.transaction('r', table, () =>
    Promise.all(
      ranges.map(([first, last]) => table.where(':id').between(first, last, true, true).toArray().then(take)),
    ),
  );
  return lines;
}

/** A list's rows (by key, in its order) as an export the import reads back, in parts of the file's text. */
export async function exportParts(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
): Promise<string[]> {
  let t = performance.now();
  const names = await namesReader(db);
  for (const e of namedEntities(entity)) await names.load(e);
  t = mark('names', t);
  const writer = new ExportWriter(entity, names.get);
  // A few rows of a large table are read by key; most of it from the index, or in ranges.
  const few = keys.length * 4 < (await db.rows(entity).count());
  const lines =
    (few ? null : await linesFromIndex(db, entity, keys, writer)) ??
    (await linesOf(db, entity, keys, (row) => writer.line(row), few));
  t = mark('lines', t);
  const parts: string[] = [BOM + writer.header()];
  for (let i = 0; i < keys.length; i += PART_LINES) {
    let part = '';
    for (const key of keys.slice(i, i + PART_LINES)) part += lines.get(key) ?? '';
    parts.push(part);
  }
  mark('parts', t);
  return parts;
}

/** The export as one text (tests). */
export const exportCsv = async (db: LocalDb, entity: EntityDescription, keys: readonly string[]) =>
  (await exportParts(db, entity, keys)).join('');
