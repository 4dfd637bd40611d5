/**
 * Work that must follow changes, one run at a time: a `run` while one is running asks for one
 * more run after it (however many came meanwhile), so the last answer always began after the
 * last change, and every answer is handed on (each was current when it began). `close` stops
 * handing answers on. Used for the dashboard's figures in the window (app/dashboard/chart-figures.ts) and
 * the list worker's counts watches (list-engine/count-watches.ts). No DOM.
 */
export interface Follower {
  run(): Promise<void>;
  close(): void;
}

export function follower<T>(
  read: () => Promise<T>,
  onAnswer: (answer: T) => void,
  onError: (error: unknown) => void,
): Follower {
  let running = false;
  let again = false;
  let closed = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const answer = await read();
        if (!closed) onAnswer(answer);
      } while (again && !closed);
    } catch (error) {
      if (!closed) onError(error);
    } finally {
      running = false;
    }
  };
  return {
    run,
    close: () => {
      closed = true;
    },
  };
}
