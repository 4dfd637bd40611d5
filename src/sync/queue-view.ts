/**
 * The outbox as the administrator reads it (rule 8): each change with what it is, its state
 * in words, what it waits for, and the spec's 'Failed to …' text when the server refused it.
 */

import { entityByName } from '../contract/entities';
import { actionNotices } from '../contract/entity';
import { lowest } from '../contract/extremes';
import { entityMessages } from '../contract/messages';
import type { OutboxEntry } from '../db/outbox/outbox-entry';
import type { IdResolver } from './entry-request';
import { planQueue } from './plan';

export interface QueueItem {
  entry: OutboxEntry;
  /** e.g. 'Class “Grade 9”'. */
  record: string;
  /** e.g. 'Add', 'Edit', 'Delete', 'Enable'. */
  action: string;
  state: 'Waiting' | 'Sending' | 'Failed' | 'Conflict';
  /** Why it has not gone yet, when another change holds it. */
  waitsFor: string | null;
  /** The spec's text for a refused change, e.g. 'Failed to add class'. */
  failure: string | null;
  /** Who made the change (the username signed in then); null for changes made before that was kept. */
  author: string | null;
  /**
   * Why another administrator's change is not sent now, e.g. 'Made by maria: sent when maria
   * signs in on this device (or discard it)'; null for the signed-in administrator's own.
   */
  heldFor: string | null;
}

const ACTION = {
  add: 'Add',
  update: 'Edit',
  delete: 'Delete',
  set: 'Change',
  relate: 'Assign books',
} as const;
const STATE = { pending: 'Waiting', sending: 'Sending', failed: 'Failed', conflict: 'Conflict' } as const;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** A record's name as a few words: a file by its name, rich text by the start of its text. */
function shortName(value: unknown, kind: string | undefined): string {
  if (value instanceof Blob) return (value as File).name ?? '';
  const text = String(value ?? '');
  if (kind !== 'richtext') return text;
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 40 ? `${plain.slice(0, 39)}…` : plain;
}

function describe(entry: OutboxEntry): { record: string; action: string; failure: string } {
  const entity = entityByName(entry.entity);
  const title = entity.fields[entity.title];
  const name = shortName(entry.payload[entity.title] ?? entry.base?.[entity.title], title?.kind);
  // A single document is named by what it is ('About Us Content'), not by its text.
  const record = entity.single
    ? (title?.label ?? entity.names.One)
    : `${entity.names.One}${name ? ` “${name}”` : ''}`;
  const text = entityMessages(entity);
  if (entry.op === 'set') {
    const action = entity.actions?.[entry.action ?? ''];
    const value = action ? String(entry.payload[action.field]) : '';
    const pair = action && actionNotices(action, value);
    return {
      record,
      action: value === 'Enabled' ? 'Enable' : value === 'Disabled' ? 'Disable' : ACTION.set,
      failure: pair?.[1] ?? '',
    };
  }
  if (entry.op === 'relate') {
    const rel = entity.relations?.[entry.relation ?? ''];
    return { record, action: ACTION.relate, failure: rel?.messages[1] ?? '' };
  }
  const failure = { add: text.failedAdd, update: text.failedUpdate, delete: text.failedDelete }[entry.op];
  return { record, action: ACTION[entry.op], failure };
}

/** The sentence for a change that waits for its author's own sign-in. */
export const heldText = (author: string) =>
  `Made by ${author}: sent when ${author} signs in on this device (changes go out only under their author's own sign-in), or discard it.`;

/**
 * `user`: the administrator signed in (null: nobody); another administrator's changes are
 * shown as waiting for their author. Absent: no change is held.
 */
export function queueView(
  entries: readonly OutboxEntry[],
  resolve: IdResolver,
  now: number,
  user?: string | null,
): QueueItem[] {
  const plan = planQueue(entries, resolve, now, Number.POSITIVE_INFINITY, user);
  return [...entries]
    .sort((a, b) => a.seq - b.seq)
    .map((entry) => {
      const { record, action, failure } = describe(entry);
      const blocker = plan.waitsFor.get(entry.seq);
      const blockerAuthor = blocker && plan.heldFor.get(blocker.seq);
      const waitsFor = blocker
        ? `Waits for: ${describe(blocker).action} ${describe(blocker).record}${blocker.status === 'failed' || blocker.status === 'conflict' ? ` (${STATE[blocker.status].toLowerCase()})` : ''}${blockerAuthor ? ` (made by ${blockerAuthor})` : ''}`
        : null;
      const heldBy = plan.heldFor.get(entry.seq);
      return {
        entry,
        record,
        action,
        state: STATE[entry.status],
        waitsFor,
        failure: entry.status === 'failed' ? failure : null,
        author: entry.author ?? null,
        heldFor: heldBy ? heldText(heldBy) : null,
      };
    });
}

/** The warning when the oldest waiting change is more than a day old, else null. */
export function staleWarning(entries: readonly OutboxEntry[], now: number): string | null {
  const waiting = entries.filter((e) => e.status !== 'sending');
  if (waiting.length === 0) return null;
  const oldest = lowest(waiting.map((e) => e.createdAt));
  if (now - oldest <= DAY_MS) return null;
  const days = Math.floor((now - oldest) / DAY_MS);
  return `The oldest change has been waiting for ${days === 1 ? 'a day' : `${days} days`} (since ${new Date(oldest).toLocaleString()}). Connect to the internet and sign in so it can be sent.`;
}
