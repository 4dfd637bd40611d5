/**
 * An add that takes several files, one record each (FieldSpec.several: addbookpages.php with
 * `file-0..n`, or one `image` from the V1-V5 client). Every file is checked before anything is
 * stored, so a request with one bad file adds nothing. The records share the request's other
 * values and take the number field in turn, in the order sent: from the number given upward,
 * or after the highest number among the records of the same parent (the book's last page).
 * The parent row is locked (FOR NO KEY UPDATE) while the highest number is read, so two adds
 * to one book never take the same numbers. The reply names the first record like any add
 * (`id`) and every one in order (`ids`), our extension.
 */
import type { EntityDescription } from '../../src/contract/entity';
import { severalField, severalNumbers } from '../../src/contract/several-files';
import { validateWrite, type WireBody } from '../../src/contract/validation';
import { NEW_ID_FIELD } from '../../src/contract/wire';
import type { Query } from '../db';
import type { EntityGraph, ParentLink } from '../entities/graph';
import { type ApiHandler, ok, refuse } from '../entities/handler';
import { replyTexts } from '../entities/reply-texts';
import { ident } from '../entities/sql';
import type { Columns } from './columns';
import { checkFile, checkFiles, fileColumns, fileFields, type IncomingFile, storeFile } from './files';
import { cleanRichTextFields } from './rich-text';
import { addColumnsChecked, lookupFor, type WriteOptions } from './write';

/** More files than this in one request are refused (a book's chapter is a few dozen pages). */
export const MAX_SEVERAL_FILES = 200;
const INT_MAX = 2_147_483_647;

/** The files' values in the order sent: the single field first, then prefix0, prefix1, ... */
function sentFiles(body: WireBody, prefix: string, single: string | undefined): unknown[] {
  const numbered = Object.keys(body)
    .map((name) => ({ name, index: name.startsWith(prefix) ? name.slice(prefix.length) : '' }))
    .filter(({ index }) => /^(0|[1-9][0-9]{0,5})$/.test(index))
    .sort((a, b) => Number(a.index) - Number(b.index))
    .map(({ name }) => body[name]);
  const first = single === undefined ? undefined : body[single];
  return [first, ...numbered].filter((raw) => raw !== undefined && raw !== '' && raw !== 'null');
}

/**
 * The highest number given so far within the parent, its row locked first so that two adds
 * under one parent number one after the other.
 */
async function highestNumber(
  q: Query,
  table: string,
  field: string,
  within: ParentLink,
  parentId: unknown,
): Promise<number | null> {
  const parent = within.parent;
  await q(`SELECT 1 FROM ${ident(parent.table)} WHERE ${ident(parent.key)} = $1 FOR NO KEY UPDATE`, [
    parentId,
  ]);
  const [row] = await q<{ highest: number | null }>(
    `SELECT max(${ident(field)}) AS highest FROM ${table} WHERE ${ident(within.field)} = $1`,
    [parentId],
  );
  return row?.highest ?? null;
}

export function addSeveralHandler(
  entity: EntityDescription,
  graph: EntityGraph,
  options: WriteOptions,
): ApiHandler {
  const found = severalField(entity);
  if (!found) throw new Error(`${entity.name}: no field takes several files`);
  const { field, spec, several } = found;
  const fileField = fileColumns(entity).find((f) => f.field === field)!;
  const others = fileFields(entity, 'add').filter((f) => f.field !== field);
  const { numbering } = several;
  const within = numbering && graph.parents(entity).find((link) => link.field === numbering.within);
  if (numbering && !within)
    throw new Error(`${entity.name}: numbering within ${numbering.within}, not a ref`);
  const text = replyTexts(entity);
  const table = ident(entity.table);

  return async ({ q, body, uploads, adminId, audit }) => {
    const checked = cleanRichTextFields(entity, 'add', validateWrite(entity, 'add', body));
    if (!checked.ok) return refuse(400, checked.message);
    const lookup = lookupFor(adminId, options);
    const raws = sentFiles(body, several.prefix, several.single);
    if (raws.length === 0 && spec.required) return refuse(400, `${spec.label} is required`);
    if (raws.length > MAX_SEVERAL_FILES)
      return refuse(400, `At most ${MAX_SEVERAL_FILES} files can be added at once`);
    const files: (IncomingFile | null)[] = [];
    for (const raw of raws) {
      const file = await checkFile(fileField, raw, 'add', lookup);
      if (file !== null && 'message' in file) return refuse(400, file.message);
      files.push(file);
    }
    // Without any file (an optional field): one record, as a plain add.
    if (files.length === 0) files.push(null);
    const incoming = await checkFiles(others, 'add', body, lookup);
    if (!incoming.ok) return refuse(400, incoming.message);

    const columns = await addColumnsChecked(q, graph, entity, checked.value);
    if (!columns.ok) return refuse(400, columns.message);
    const { cols } = columns;

    let numbers: (number | null)[] = files.map(() => null);
    if (numbering && within) {
      const given = cols[numbering.field];
      const highest =
        given === undefined || given === null
          ? await highestNumber(q, table, numbering.field, within, cols[within.field])
          : null;
      numbers = severalNumbers(
        files.length,
        given === undefined || given === null ? null : Number(given),
        highest,
      );
      if ((numbers.at(-1) ?? 0) > INT_MAX)
        return refuse(400, `${entity.fields[numbering.field].label} is too large`);
    }

    for (const f of incoming.files) await storeFile(uploads, f, cols);
    const ids: number[] = [];
    for (const [i, file] of files.entries()) {
      const row: Columns = { ...cols };
      if (file) await storeFile(uploads, file, row);
      if (numbering) row[numbering.field] = numbers[i];
      const names = Object.keys(row);
      const [stored] = await q(
        `INSERT INTO ${table} (${names.map(ident).join(', ')})
         VALUES (${names.map((_, n) => `$${n + 1}`).join(', ')}) RETURNING *`,
        Object.values(row),
      );
      audit.added(entity, stored);
      ids.push(stored[entity.key] as number);
    }
    if (options.legacy) return ok({ message: text.added });
    return ok({ message: text.added, [NEW_ID_FIELD]: ids[0], [entity.key]: ids[0], ids });
  };
}
