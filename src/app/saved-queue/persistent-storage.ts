/**
 * Asks the browser to keep this site's data when space runs low (rule 7), once an
 * administrator has signed in: the queue of unsent changes lives there until it is sent.
 * Browsers decide on their own (Chromium by how much the site is used, Firefox by asking);
 * the outbox screen says what they decided (unsent-changes.ts). Small: sign-in loads it.
 */
export function askPersistentStorage(): void {
  void navigator.storage?.persist?.().catch(() => undefined);
}
