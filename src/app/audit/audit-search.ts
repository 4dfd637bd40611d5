/**
 * The history screen's address (`/audit?entity=classes&id=12&admin=&from=&to=&before=&page=`):
 * its filters as the administrator chose them (dates as the date inputs give them, in local
 * time) and where its paging stands. Validated by the route (in the first load: nothing heavy
 * here), and made by every edit form's history link.
 *
 * The router runs the validation on the search it writes into the address too, and keeps each
 * value's type there: digits kept as text would read `id=%2212%22`, so they are numbers here
 * (`id=12`), and every reader takes a filter's value as text (`String`).
 */
import { auditEntityName } from '../../contract/audit/audit-trail';
import type { EntityDescription } from '../../contract/entity';
import { isTempId } from '../../db/ids';

/** A filter's text; digits as a number (see above). */
export type AuditText = string | number;

export interface AuditSearch {
  /** The entity as the trail names it (its table: `classes`). */
  entity?: AuditText;
  id?: AuditText;
  admin?: AuditText;
  /** YYYY-MM-DD, local days, both inclusive. */
  from?: string;
  to?: string;
  /** The entry the paging counts from: only older ones (kept while moving between pages). */
  before?: number;
  page?: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DIGITS = /^[1-9][0-9]{0,14}$/;

function text(value: unknown): AuditText | undefined {
  const t = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof t !== 'string' || t.trim() === '') return undefined;
  return DIGITS.test(t.trim()) ? Number(t.trim()) : t.trim();
}

export function validateAuditSearch(raw: Record<string, unknown>): AuditSearch {
  const day = (value: unknown) => (typeof value === 'string' && DAY.test(value) ? value : undefined);
  const before = text(raw.before);
  const page = Number(raw.page);
  return {
    entity: text(raw.entity),
    id: text(raw.id),
    admin: text(raw.admin),
    from: day(raw.from),
    to: day(raw.to),
    before: typeof before === 'number' ? before : undefined,
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
}

/**
 * The history of one record, for its edit form's link; null while the record has only this
 * device's temporary id (the server has no history of it yet). A single document (About Us)
 * is its entity's one record.
 */
export function recordHistory(entity: EntityDescription, id: string): AuditSearch | null {
  if (isTempId(id)) return null;
  const name = auditEntityName(entity);
  return entity.single ? { entity: name } : { entity: name, id };
}
