/** The notice for a change that could not even be saved on this device. */
import { STORAGE_FULL } from '../contract/messages';
import { isQuotaError } from '../db/errors';

export function saveFailureDetail(error: unknown): string | undefined {
  if (isQuotaError(error)) return STORAGE_FULL;
  return error instanceof Error ? error.message : undefined;
}
