/**
 * The import's and the export's work on the device (issue 20), run in the CSV worker
 * (src/csv-worker.ts) and in tests: a file checked against the device's rows, the refused
 * lines of an import as a CSV with an `error` column, a list's rows as an export.
 */
import { type ImportLookups, RowChecker } from '../contract/csv/check';
import { matchHeader } from '../contract/csv/columns';
import { ExportWriter } from '../contract/csv/export-row';
import { csvMessages } from '../contract/csv/messages';
import { parseAll, parseCsv } from '../contract/csv/parse';
import { BOM, csvLine } from '../contract/csv/write';
import { entityByName } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { type Country, geoPaths, type State } from '../contract/geography';
import type { LocalDb, Row } from './database';
import type { ImportFile, ReadyRow } from './imports';
import { readReference } from './reference';
import { titlesOf } from './relation-reads';

export interface FileProblem {
  line: number;
  field: string;
  problem: string;
}

export interface FileCheck {
  /** Data rows in the file. */
  total: number;
  /** Rows that will be queued. */
  ready: number;
  /** Rows with an ID equal to the device's record. */
  upToDate: number;
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
        problems: [{ line: 1, field: '', problem: csvMessages.noColumns }],
        unknown: [],
      },
      rows: [],
    };
  // The device's records the file names by ID, read once.
  const idAt = matchHeader(entity, header).columns.findIndex((c) => c?.kind === 'id');
  const ids = idAt < 0 ? [] : [...new Set(parsed.map((r) => (r.cells[idAt] ?? '').trim()).filter(Boolean))];
  const found = await db.rows(entity).bulkGet(ids);
  const byId = new Map<string, Row>();
  ids.forEach((id, i) => {
    const row = found[i];
    if (row) byId.set(id, row);
  });
  const names = await namesReader(db);
  for (const e of namedEntities(entity)) await names.load(e);
  const lookups: ImportLookups = {
    row: (id) => byId.get(id),
    names: names.get,
    countries: (await readReference<Country>(db, geoPaths.countries())) ?? [],
    states: (await readReference<State>(db, geoPaths.allStates())) ?? [],
  };
  const checker = new RowChecker(entity, header, lookups);
  const problems: FileProblem[] = [];
  const rows: ReadyRow[] = [];
  let upToDate = 0;
  for (const { cells, line } of parsed) {
    const checked = checker.check(cells, line);
    if (checked.problems.length) for (const p of checked.problems) problems.push({ line, ...p });
    else if (checked.upToDate) upToDate++;
    else
      rows.push({ line, op: checked.op, key: checked.key, values: checked.values, status: checked.status });
  }
  if (parsed.length === 0) problems.push({ line: 2, field: '', problem: csvMessages.noRows });
  return {
    check: { total: parsed.length, ready: rows.length, upToDate, problems, unknown: checker.match.unknown },
    rows,
  };
}

/** The refused lines of an import as they were in the file, with the server's words in an added `error` column. */
export function refusedRowsCsv(
  file: ImportFile,
  refused: readonly { line: number; error: string }[],
): string {
  const errors = new Map(refused.map((r) => [r.line, r.error]));
  let out = '';
  parseCsv(
    file.text,
    (header) => {
      out = BOM + csvLine([...header, 'error']);
    },
    (rows) => {
      for (const r of rows) if (errors.has(r.line)) out += csvLine([...r.cells, errors.get(r.line)]);
    },
  );
  return out;
}

const EXPORT_READ = 2000;
const RANGE_READ = 5000;

/**
 * The rows of these keys. A large share of the table is read whole, in key ranges (IndexedDB's
 * getAll answers thousands of rows a request, where a read by key is one request a row: 100,000
 * rows by key took 14.5 s in the benchmark); a few rows are read by key.
 */
async function rowsOf(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
): Promise<(key: string) => Row | undefined> {
  const table = db.rows(entity);
  if (keys.length * 4 < (await table.count())) {
    const byKey = new Map<string, Row>();
    for (let i = 0; i < keys.length; i += EXPORT_READ) {
      const part = keys.slice(i, i + EXPORT_READ);
      const rows = await table.bulkGet(part);
      rows.forEach((row, j) => {
        if (row) byKey.set(part[j], row);
      });
    }
    return (key) => byKey.get(key);
  }
  const all = new Map<string, Row>();
  let last: string | null = null;
  for (;;) {
    const page: Row[] = await (last === null ? table.orderBy(':id') : table.where(':id').above(last))
      .limit(RANGE_READ)
      .toArray();
    for (const row of page) all.set(String(row[entity.key]), row);
    if (page.length < RANGE_READ) break;
    last = String(page[page.length - 1][entity.key]);
  }
  return (key) => all.get(key);
}

/** A list's rows (by key, in its order) as an export the import reads back. */
export async function exportCsv(
  db: LocalDb,
  entity: EntityDescription,
  keys: readonly string[],
): Promise<string> {
  const names = await namesReader(db);
  for (const e of namedEntities(entity)) await names.load(e);
  const writer = new ExportWriter(entity, names.get);
  const rowOf = await rowsOf(db, entity, keys);
  const parts: string[] = [BOM, writer.header()];
  for (const key of keys) {
    const row = rowOf(key);
    if (row) parts.push(writer.line(row));
  }
  return parts.join('');
}
