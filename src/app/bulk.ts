/**
 * The screens' door to acting on many rows (src/db/bulk/bulk-changes.ts): the keys of every row a list's
 * query matches ('Select all N matching', from the list worker a slice at a time), and a bulk
 * change or its undo queued and then sent. Loaded on demand, when a list first selects.
 */
import type { EntityDescription } from '../contract/entity';
import {
  applyBulk,
  type BulkChange,
  type BulkOutcome,
  type BulkUndo,
  type SliceOptions,
  type UndoOutcome,
  undoBulk,
} from '../db/bulk/bulk-changes';
import type { PageQuery } from '../db/queries';
import { allWithParentNames } from '../db/reads/relation-reads';
import { keysOf } from './list-worker-client';
import { changeSaved } from './sync-runner';
import { db } from './window-context';

export type { BulkChange, BulkOutcome, BulkUndo, UndoOutcome };

/** Keys asked of the worker per message: a few structured clones of a few thousand strings. */
const KEYS_SLICE = 5000;

/** Every key the query matches, in its order. */
export async function matchingKeys(entity: EntityDescription, query: PageQuery): Promise<string[]> {
  const first = await keysOf(entity.name, query, 0, KEYS_SLICE);
  const keys = [...first.keys];
  while (keys.length < first.total) {
    const next = await keysOf(entity.name, query, keys.length, KEYS_SLICE);
    if (next.keys.length === 0) break;
    keys.push(...next.keys);
  }
  return keys;
}

/** Queues the change for every key and starts sending. */
export async function queueBulk(
  entity: EntityDescription,
  keys: readonly string[],
  change: BulkChange,
  options?: SliceOptions,
): Promise<BulkOutcome> {
  try {
    return await applyBulk(db, entity, keys, change, options);
  } finally {
    changeSaved();
  }
}

/** Undoes a bulk change (what is still unsent is cancelled) and sends whatever that queued. */
export async function undoQueuedBulk(
  entity: EntityDescription,
  undo: BulkUndo,
  options?: SliceOptions,
): Promise<UndoOutcome> {
  try {
    return await undoBulk(db, entity, undo, options);
  } finally {
    changeSaved();
  }
}

/** The books to choose from (with their parents' names, as the assignment screen shows them). */
export const choicesOf = (target: EntityDescription) => allWithParentNames(db, target);
