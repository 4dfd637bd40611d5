/** The notice for a change that could not even be saved on this device. */

import { isStorageFull, refusalReason } from '../app/records';
import { STORAGE_FULL } from '../contract/messages';

/** A sentence for the administrator; the exception itself goes to the console, never to the screen. */
export function saveFailureDetail(error: unknown): string | undefined {
  if (isStorageFull(error)) return STORAGE_FULL;
  const reason = refusalReason(error);
  if (reason) return reason;
  console.error(error);
  return 'The change could not be saved on this device. Reload the page and try again.';
}
