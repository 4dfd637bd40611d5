/**
 * The get-one endpoint, the id in the query string: `{ success, [getField]: row }`, or the
 * row's columns at the top level where the description says the reply is flat (getSchool.php).
 * A password field carries the fixed placeholder, never the hash: the original's edit forms
 * send back what they loaded, and the placeholder means "keep" (password-placeholder.ts).
 */
import { type EntityDescription, idParamOf } from '../../src/contract/entity';
import { PASSWORD_PLACEHOLDER } from '../../src/contract/password-placeholder';
import type { EntityGraph } from './graph';
import { type ApiHandler, ok } from './handler';
import { notFound, readId } from './ids';
import { rowSelect } from './select';
import { ident, toWireRow } from './sql';

export function getHandler(entity: EntityDescription, graph: EntityGraph): ApiHandler {
  const sql = `${rowSelect(entity, graph).sql} WHERE t.${ident(entity.key)} = $1`;
  const wrap = entity.api.getField;
  const placeholders = Object.fromEntries(
    Object.entries(entity.fields)
      .filter(([, spec]) => spec.kind === 'password')
      .map(([name]) => [name, PASSWORD_PLACEHOLDER]),
  );
  return async ({ q, query }) => {
    const read = readId(entity, query[idParamOf(entity)]);
    if ('reply' in read) return read.reply;
    const [row] = await q<Record<string, unknown>>(sql, [read.id]);
    if (!row) return notFound(entity);
    const wire = { ...toWireRow(entity, row), ...placeholders };
    return ok(wrap === null ? wire : { [wrap ?? entity.name]: wire });
  };
}
