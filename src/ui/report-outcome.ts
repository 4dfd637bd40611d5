/**
 * Tells the administrator what became of a saved change, with the spec's texts: the success
 * text once the server confirmed it, the same text plus 'saved on this device ...' while it
 * waits, or 'Failed to ...' with the server's message.
 */

import { awaitDelivery } from '../app/records';
import { SAVED_NO_ANSWER_YET, SAVED_OFFLINE } from '../contract/messages';
import type { NoticeKind } from './notices';

export async function reportOutcome(
  notify: (kind: NoticeKind, text: string, detail?: string) => void,
  entryId: string | null,
  success: string,
  failure: string,
): Promise<void> {
  const outcome = await awaitDelivery(entryId);
  if (outcome.kind === 'confirmed') notify('success', success);
  else if (outcome.kind === 'queued')
    notify('info', success, navigator.onLine ? SAVED_NO_ANSWER_YET : SAVED_OFFLINE);
  else notify('error', failure, outcome.message ?? undefined);
}
