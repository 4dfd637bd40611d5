/** The reply of `GET {apiRoot}/audit` (contract/audit/audit-trail.ts), as the client checks it. */
import * as v from 'valibot';
import { AUDIT_OPS } from './audit-trail';

const changeSchema = v.tuple([v.unknown(), v.unknown()]);

export const auditEntrySchema = v.looseObject({
  id: v.string(),
  at: v.string(),
  madeAt: v.nullable(v.string()),
  admin: v.nullable(v.string()),
  device: v.nullable(v.string()),
  entity: v.string(),
  recordId: v.string(),
  op: v.picklist(AUDIT_OPS),
  changes: v.record(v.string(), changeSchema),
});

export type AuditEntry = v.InferOutput<typeof auditEntrySchema>;

export const auditReplySchema = v.looseObject({
  success: v.literal(true),
  data: v.array(auditEntrySchema),
  total: v.number(),
  /** The cursor of the next page (`before`), null on the last. */
  next: v.nullable(v.string()),
});

export type AuditReply = v.InferOutput<typeof auditReplySchema>;
