/** The notice for a change that could not even be saved on this device. */

import { isStorageFull } from '../app/records';
import { STORAGE_FULL } from '../contract/messages';

export function saveFailureDetail(error: unknown): string | undefined {
  if (isStorageFull(error)) return STORAGE_FULL;
  return error instanceof Error ? error.message : undefined;
}
