/**
 * Tells the administrator what became of a saved change, with the spec's texts: the success
 * text once the server confirmed it, the same text plus 'saved on this device ...' while it
 * waits, or 'Failed to ...' with the server's message. A success text of null (book pages'
 * silent add and update) says nothing once confirmed, and only the waiting part while it waits.
 */

import { awaitDelivery, type DeliveryOutcome } from '../app/records';
import type { UploadProgress } from '../app/sync-status/upload-progress';
import {
  FILE_PROGRESS_WHERE,
  FILE_SENT_WHEN_ONLINE,
  fileBeingSent,
  SAVED_NO_ANSWER_YET,
  SAVED_OFFLINE,
} from '../contract/messages';
import type { NoticeKind, Notify } from './notices';
import { sharePercent } from './sync-status/upload-progress-line';

/** What a report says, on the save's topic. */
type Say = (kind: NoticeKind, text: string, detail?: string) => void;

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/**
 * The notice for what became of one or more changes saved together (the pages of one add).
 * `files`: the changes carry files, and this is how far their upload got; while they are not
 * through, the notice says so instead of the waiting text. `topic`: the save's earlier notice
 * that this one replaces (savedNoticeTopic).
 */
export function reportOutcomes(
  notify: Notify,
  outcomes: readonly DeliveryOutcome[],
  success: string | null,
  failure: string,
  files?: readonly UploadProgress[],
  topic?: string,
): void {
  const say: Say = (kind, text, detail) => notify(kind, text, detail, undefined, topic);
  const failed = outcomes.find((o) => o.kind === 'failed');
  if (failed?.kind === 'failed') {
    say('error', failure, failed.message ?? undefined);
    return;
  }
  if (outcomes.every((o) => o.kind === 'confirmed')) {
    if (success !== null) say('success', success);
    return;
  }
  if (files) {
    reportFileOnItsWay(say, files);
    return;
  }
  const waiting = navigator.onLine ? SAVED_NO_ANSWER_YET : SAVED_OFFLINE;
  if (success === null) notify('info', sentence(waiting));
  else notify('info', success, waiting);
}

/** 'Saved; the file is being sent, 12%.', or offline, that it goes when the connection returns. */
function reportFileOnItsWay(notify: Say, files: readonly UploadProgress[]): void {
  if (navigator.onLine) {
    notify('info', fileBeingSent(files.length > 0 ? sharePercent(files) : null), FILE_PROGRESS_WHERE);
    return;
  }
  const reached = files.length > 0 ? sharePercent(files, 'confirmed') : 0;
  const far = reached > 0 ? `${reached}% of it has reached the server. ` : '';
  notify('info', FILE_SENT_WHEN_ONLINE, `${far}${FILE_PROGRESS_WHERE}`);
}

export async function reportOutcome(
  notify: Notify,
  entryId: string | null,
  success: string | null,
  failure: string,
): Promise<void> {
  reportOutcomes(notify, [await awaitDelivery(entryId)], success, failure);
}

/** The topic of the notices of one save (its first change): each says what is true now. */
export const savedNoticeTopic = (entryIds: readonly string[]) => `saved:${entryIds[0] ?? ''}`;
