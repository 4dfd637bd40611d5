/**
 * Where and when a write was made, as its request says (src/contract/audit/audit-trail.ts): the device's
 * id from `X-Device-Id`, the time from `X-Made-At` (or a batch item's `madeAt`). Neither is
 * trusted for anything but the record: a value that is not sane is kept as unknown (null),
 * never a reason to refuse the write, which the PHP server would have taken anyway.
 */
import type { Context } from 'hono';
import { DEVICE_HEADER, isDeviceId, parseMadeAt } from '../../src/contract/audit/audit-trail';
import type { AuditOrigin } from './store';

export function auditOrigin(c: Context, madeAt: unknown): Omit<AuditOrigin, 'adminId'> {
  const device = c.req.header(DEVICE_HEADER);
  return { madeAt: parseMadeAt(madeAt), device: isDeviceId(device) ? device : null };
}
