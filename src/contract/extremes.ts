/**
 * The lowest and highest of many numbers, by a loop: `Math.min(...values)` passes each value as
 * an argument, and a long list (an import's 100,000 outbox entries, a queue that waited a week)
 * overflows the call stack (about 120,000 arguments in V8, fewer in a worker).
 */
export function lowest(values: Iterable<number>): number {
  let low = Number.POSITIVE_INFINITY;
  for (const v of values) if (v < low) low = v;
  return low;
}

export function highest(values: Iterable<number>): number {
  let high = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > high) high = v;
  return high;
}
