/** Storage errors the screens explain in words rather than as a generic failure. */

/** IndexedDB ran out of quota (Dexie wraps the DOMException; both carry the name). */
export function isQuotaError(error: unknown): boolean {
  let e = error as { name?: string; inner?: unknown; failures?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e.name === 'QuotaExceededError') return true;
    // A modify (Dexie's ModifyError) lists the failure of each record it could not write.
    if (Array.isArray(e.failures) && e.failures.some(isQuotaError)) return true;
    e = e.inner as typeof e;
  }
  return false;
}
