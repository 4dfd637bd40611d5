/**
 * Tells the administrator what became of a saved change, with the spec's texts: the success
 * text once the server confirmed it, the same text plus 'saved on this device ...' while it
 * waits, or 'Failed to ...' with the server's message. A success text of null (book pages'
 * silent add and update) says nothing once confirmed, and only the waiting part while it waits.
 */

import { awaitDelivery, type DeliveryOutcome } from '../app/records';
import { SAVED_NO_ANSWER_YET, SAVED_OFFLINE } from '../contract/messages';
import type { NoticeKind } from './notices';

type Notify = (kind: NoticeKind, text: string, detail?: string) => void;

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/** The notice for what became of one or more changes saved together (the pages of one add). */
export function reportOutcomes(
  notify: Notify,
  outcomes: readonly DeliveryOutcome[],
  success: string | null,
  failure: string,
): void {
  const failed = outcomes.find((o) => o.kind === 'failed');
  if (failed?.kind === 'failed') {
    notify('error', failure, failed.message ?? undefined);
    return;
  }
  if (outcomes.every((o) => o.kind === 'confirmed')) {
    if (success !== null) notify('success', success);
    return;
  }
  const waiting = navigator.onLine ? SAVED_NO_ANSWER_YET : SAVED_OFFLINE;
  if (success === null) notify('info', sentence(waiting));
  else notify('info', success, waiting);
}

export async function reportOutcome(
  notify: Notify,
  entryId: string | null,
  success: string | null,
  failure: string,
): Promise<void> {
  reportOutcomes(notify, [await awaitDelivery(entryId)], success, failure);
}
