/**
 * `GET {apiRoot}/audit?entity=&id=&admin=&from=&to=&before=&page=&limit=` (our extension, not
 * mounted in legacy mode): the audit trail newest first, `{success, data, total, next}`.
 *
 * Paging is keyset with a page count beside it: `before` (an entry's id: a page's `next`, or
 * the newest id a screen has seen, as a snapshot) keeps only older entries, and `page` counts
 * pages of `limit` from there. A client walking the trail follows `next` with page 1, each page
 * an index range whatever its depth; a screen that numbers its pages keeps one `before` and
 * moves `page`, and new entries never shift what it shows.
 */
import type { Hono } from 'hono';
import { cannotReadAudit, isOwner } from '../../src/contract/accounts/roles';
import {
  AUDIT_DEFAULT_LIMIT,
  AUDIT_MAX_LIMIT,
  AUDIT_PATH,
  ISO_TIME,
} from '../../src/contract/audit/audit-trail';
import type { Query } from '../db';
import type { AppEnv } from '../http/env';
import { fail } from '../http/reply';
import { type AuditFilter, readAudit } from './store';

const WHOLE = /^[1-9][0-9]{0,15}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TEXT = 200;

export const AUDIT_TEXT = {
  badPaging: `page, limit and before must be positive whole numbers (limit at most ${AUDIT_MAX_LIMIT})`,
  badTime: 'from and to must be ISO 8601 dates (2025-01-31) or times (2025-01-31T08:00:00Z)',
  tooLong: `entity, id and admin must be at most ${MAX_TEXT} characters`,
} as const;

/** An ISO date (its whole day, UTC) or time as an instant; `end`: the day's last microsecond. */
function instant(raw: string, end: boolean): string | null {
  if (DATE.test(raw) && !Number.isNaN(Date.parse(raw)))
    return `${raw}T${end ? '23:59:59.999999' : '00:00:00'}Z`;
  if (ISO_TIME.test(raw) && !Number.isNaN(Date.parse(raw))) return new Date(raw).toISOString();
  return null;
}

/** The filter a query asks for, or why it cannot be answered. */
export function auditFilter(query: Record<string, string>): AuditFilter | { message: string } {
  const text = (name: string) => (query[name] === undefined || query[name] === '' ? undefined : query[name]);
  const [entity, recordId, admin] = [text('entity'), text('id'), text('admin')];
  if ([entity, recordId, admin].some((t) => t !== undefined && t.length > MAX_TEXT))
    return { message: AUDIT_TEXT.tooLong };
  /** A positive whole number, absent (undefined), or not one (null). */
  const whole = (name: string) => {
    const raw = text(name);
    return raw === undefined ? undefined : WHOLE.test(raw) ? Number(raw) : null;
  };
  const [page, limit, before] = [whole('page'), whole('limit'), whole('before')];
  if (page === null || limit === null || before === null || (limit ?? 0) > AUDIT_MAX_LIMIT)
    return { message: AUDIT_TEXT.badPaging };
  const [rawFrom, rawTo] = [text('from'), text('to')];
  const from = rawFrom === undefined ? undefined : instant(rawFrom, false);
  const to = rawTo === undefined ? undefined : instant(rawTo, true);
  if (from === null || to === null) return { message: AUDIT_TEXT.badTime };
  return { entity, recordId, admin, from, to, before, page: page ?? 1, limit: limit ?? AUDIT_DEFAULT_LIMIT };
}

export function registerAuditRoute(app: Hono<AppEnv>, query: Query, apiPrefix: string): void {
  app.get(`${apiPrefix}/${AUDIT_PATH}`, async (c) => {
    const role = c.get('role');
    if (!isOwner(role)) return fail(c, 403, cannotReadAudit(role));
    const filter = auditFilter(c.req.query());
    if ('message' in filter) return fail(c, 400, filter.message);
    return c.json({ success: true, ...(await readAudit(query, filter)) });
  });
}
