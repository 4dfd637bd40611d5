/**
 * A task a server runs now and then every `ms` (sweeps, pruning). Stopping waits for a run in
 * flight: the database closes after it, so a run never meets a closed connection.
 */
export function repeatEvery(ms: number, task: () => Promise<unknown>, onError: (err: unknown) => void) {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = task()
      .then(() => undefined, onError)
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, ms);
  timer.unref();
  return async (): Promise<void> => {
    clearInterval(timer);
    await running;
  };
}
