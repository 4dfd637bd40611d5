/**
 * One page of the server's audit trail (`GET audit`, contract/audit/audit-trail.ts), or what stands in the
 * way: no server reachable (the screen then shows what it fetched last), a server without the
 * trail (the PHP API, ours in legacy mode: 404), a lapsed session, or a query it refused.
 */
import * as v from 'valibot';
import { type AuditReply, auditReplySchema } from '../../contract/audit/audit-reply';
import { AUDIT_PATH, type AuditQuery } from '../../contract/audit/audit-trail';
import type { ApiClient } from '../api/api-client';

export type AuditRead =
  | { kind: 'answer'; reply: AuditReply }
  | { kind: 'unreachable' }
  | { kind: 'absent' }
  | { kind: 'signed-out' }
  | { kind: 'refused'; message: string };

export async function readAuditPage(api: ApiClient, query: AuditQuery): Promise<AuditRead> {
  const outcome = await api.request(AUDIT_PATH, { method: 'GET', query: { ...query } });
  if (outcome.kind === 'unreachable') return { kind: 'unreachable' };
  if (outcome.status === 404 || outcome.status === 405) return { kind: 'absent' };
  if (outcome.status === 401) return { kind: 'signed-out' };
  // A captive portal's page, a proxy's error, a server restarting: as good as no server.
  if (outcome.kind === 'not-json' || outcome.status >= 500) return { kind: 'unreachable' };
  const checked = v.safeParse(auditReplySchema, outcome.body);
  if (checked.success) return { kind: 'answer', reply: checked.output };
  const message = typeof outcome.body.message === 'string' ? outcome.body.message : '';
  return { kind: 'refused', message: message || `The server answered ${outcome.status}` };
}
