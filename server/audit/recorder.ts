/**
 * What a write handler tells the audit trail: every handler gets a recorder with its request
 * (server/entities/handler.ts) and says, with the rows the database returned, what it did to which
 * record. The write pipeline keeps an item's entries only when the item succeeds, adds who,
 * from which device and when, and stores them in the item's transaction
 * (server/api/write-pipeline.ts, store.ts). A write that succeeds without an entry is a bug
 * the pipeline refuses to commit, so a new handler cannot forget the trail.
 */
import { type AuditOp, auditEntityName } from '../../src/contract/audit/audit-trail';
import type { EntityDescription } from '../../src/contract/entity';
import { type Changes, changesBetween, type Row } from './changes';

/** One change as the handler knows it. */
export interface RecordedChange {
  entity: string;
  recordId: string;
  op: AuditOp;
  changes: Changes;
}

export interface AuditRecorder {
  /** A record added: `row` as stored (RETURNING *). */
  added(entity: EntityDescription, row: Row): void;
  /** A record changed (`toggle` for a status or popular toggle); rows before and after. */
  updated(entity: EntityDescription, before: Row, after: Row, op?: 'update' | 'toggle'): void;
  /** A record deleted: the row it was. */
  deleted(entity: EntityDescription, row: Row): void;
  /** A set relation of `id` replaced (the books assigned to a school): its ids before and after. */
  assigned(
    entity: EntityDescription,
    id: string,
    relation: string,
    before: readonly number[],
    after: readonly number[],
  ): void;
}

const idOf = (entity: EntityDescription, row: Row) => String(row[entity.key]);

/**
 * An add whose record is nothing but a file (an image inserted in rich text) is an upload; any
 * other add is an add, files or not.
 */
const addOp = (entity: EntityDescription): AuditOp =>
  Object.values(entity.fields).every((f) => f.kind === 'file') ? 'upload' : 'add';

const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

/** A recorder that collects one item's changes. */
export class ItemAudit implements AuditRecorder {
  readonly changes: RecordedChange[] = [];

  added(entity: EntityDescription, row: Row): void {
    this.push(entity, idOf(entity, row), addOp(entity), changesBetween(entity, null, row));
  }

  updated(entity: EntityDescription, before: Row, after: Row, op: 'update' | 'toggle' = 'update'): void {
    this.push(entity, idOf(entity, after), op, changesBetween(entity, before, after));
  }

  deleted(entity: EntityDescription, row: Row): void {
    this.push(entity, idOf(entity, row), 'delete', changesBetween(entity, row, null));
  }

  assigned(
    entity: EntityDescription,
    id: string,
    relation: string,
    before: readonly number[],
    after: readonly number[],
  ): void {
    const [old, now] = [sorted(before), sorted(after)];
    const same = JSON.stringify(old) === JSON.stringify(now);
    this.push(entity, id, 'assign', same ? {} : { [relation]: [old, now] });
  }

  private push(entity: EntityDescription, recordId: string, op: AuditOp, changes: Changes): void {
    this.changes.push({ entity: auditEntityName(entity), recordId, op, changes });
  }
}

const readOnly = () => {
  throw new Error('A read cannot record a change');
};

/** For reads, which change nothing: recording through it is a programming error. */
export const NO_AUDIT: AuditRecorder = {
  added: readOnly,
  updated: readOnly,
  deleted: readOnly,
  assigned: readOnly,
};
