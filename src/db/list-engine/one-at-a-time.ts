/** Work run one at a time, in the order asked; a failure does not stop what follows. */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.last.then(work);
    this.last = next.catch(() => undefined);
    return next;
  }

  /** Resolves once the work asked so far is done. */
  idle(): Promise<void> {
    return this.last.then(() => undefined);
  }
}
