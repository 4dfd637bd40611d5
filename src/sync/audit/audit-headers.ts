/**
 * What a write tells the server's audit trail (src/contract/audit/audit-trail.ts): when its change was
 * made on this device (the outbox entry's creation time) and which device made it. Headers on
 * a request sent alone (the PHP server ignores them); in a batch the time is each item's
 * `madeAt` and the device the batch request's header.
 */
import { DEVICE_HEADER, MADE_AT_HEADER } from '../../contract/audit/audit-trail';

export function auditHeaders(madeAt: number | undefined, device: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (madeAt !== undefined) headers[MADE_AT_HEADER] = new Date(madeAt).toISOString();
  if (device !== undefined) headers[DEVICE_HEADER] = device;
  return headers;
}
