/**
 * A promise's outcome, or what `late` gives once `ms` have passed first. The timer is cleared
 * when the race ends, so a finished race never holds the process open. The readiness checks,
 * the graceful shutdown and the first database connection each wait this way.
 */
export async function raceDeadline<T, L>(work: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<L>((resolve, reject) => {
    timer = setTimeout(
      () => {
        try {
          resolve(late());
        } catch (err) {
          reject(err);
        }
      },
      Math.max(0, ms),
    );
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
