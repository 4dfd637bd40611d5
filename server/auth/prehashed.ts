/**
 * Passwords hashed before the transaction that stores them. A batch applies its items one
 * after another; hashed there, each password would wait for the one before it. Instead the
 * write pipeline starts every hash of the request at once (the hash pool runs them one per
 * core, with those of requests arriving meanwhile) and awaits them before it opens its
 * transaction, which then takes them from here instead of hashing (entity-writes/columns.ts).
 *
 * Each hash has its own salt, so each is used for one row only: two rows given the same
 * password get two of its hashes, as they would if each were hashed where it is stored. When
 * the transaction runs again (an item refused, a key race), `rewind` lets it take the same
 * hashes again: the attempt that took them was rolled back whole.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { hashPassword } from './password';

export class Prehashed {
  /** Per password, its hashes in the order they were asked for. */
  private readonly hashes = new Map<string, Promise<string>[]>();
  /** Per password, how many of its hashes this attempt has taken. */
  private taken = new Map<string, number>();

  constructor(passwords: readonly string[]) {
    for (const password of passwords) {
      const list = this.hashes.get(password) ?? [];
      // Not awaited here: `ready` does. A failure is that hash's alone (the row hashes anew).
      const hash = hashPassword(password);
      hash.catch(() => {});
      list.push(hash);
      this.hashes.set(password, list);
    }
  }

  /** Resolves once every hash has been derived (or failed). */
  async ready(): Promise<void> {
    await Promise.allSettled([...this.hashes.values()].flat());
  }

  /** A hash of `password` no row of this attempt has taken, or undefined when none is left. */
  take(password: string): Promise<string> | undefined {
    const index = this.taken.get(password) ?? 0;
    const hash = this.hashes.get(password)?.[index];
    if (hash) this.taken.set(password, index + 1);
    return hash;
  }

  rewind(): void {
    this.taken = new Map();
  }
}

const current = new AsyncLocalStorage<Prehashed>();

/** Runs `fn` with `prehashed` as the hashes its writes take from. */
export const withPrehashed = <T>(prehashed: Prehashed, fn: () => Promise<T>): Promise<T> =>
  current.run(prehashed, fn);

/** The running transaction attempt starts again: its rows may take every hash again. */
export const rewindPrehashed = (): void => current.getStore()?.rewind();

/**
 * A new hash of `password` for one row: one hashed before the transaction when there is one
 * left, else one derived now.
 */
export async function hashForRow(password: string): Promise<string> {
  const early = current.getStore()?.take(password);
  if (early) {
    try {
      return await early;
    } catch {
      // That thread failed; the row's own hash below may not.
    }
  }
  return hashPassword(password);
}
