/**
 * User Timing measures of work that profiles show and the benchmarks print ('lists read
 * students', 'export lines'). Old ones are cleared now and then, so a long session does not
 * collect them. No DOM (workers have `performance` too).
 */
let count = 0;

/** A measure of `<prefix> <label>` from `start` to now, answering now: the start of what is measured next. */
export function measurer(prefix: string): (label: string, start: number) => number {
  return (label, start) => {
    if (++count % 500 === 0) performance.clearMeasures();
    performance.measure(`${prefix} ${label}`, { start });
    return performance.now();
  };
}
