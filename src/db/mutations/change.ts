/** What a change is, what `mutate` answers, and the refusals it may throw. */
import type { EntityDescription } from '../../contract/entity';
import type { FieldValue } from '../outbox/outbox-entry';

export type Values = Record<string, FieldValue>;

export type Change =
  | { op: 'add'; entity: EntityDescription; values: Values }
  | { op: 'update'; entity: EntityDescription; key: string; values: Values }
  | { op: 'delete'; entity: EntityDescription; key: string }
  /** An entity action: one field through its own endpoint (e.g. the popular toggle). */
  | { op: 'set'; entity: EntityDescription; key: string; action: string; value: FieldValue }
  /** A set relation replaced whole (the books assigned to a school). */
  | { op: 'relate'; entity: EntityDescription; key: string; relation: string; ids: readonly string[] };

export interface MutationResult {
  /** The record's local key (a new temporary id for an add). */
  key: string;
  /** True when nothing needs sending any more (an offline add deleted before it was sent). */
  cancelled: boolean;
  /** The outbox entry that carries the change (possibly an earlier one it was folded into). */
  entryId: string | null;
}

export class RecordNotFoundError extends Error {
  constructor(entity: EntityDescription, key: string) {
    super(`${entity.names.One} ${key} is not in the local store`);
  }
}

/** A record other records still name as their parent; the message is the server's. */
export class StillUsedError extends Error {}

/** A change of an entity the signed-in administrator's role may not change: "An Editor cannot change schools." */
export class OutsideRoleError extends Error {}
