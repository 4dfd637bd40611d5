/**
 * User Timing measures of the engine's work ('lists read students', 'lists order
 * students.student_name'), which profiles show and the list benchmark prints. Old ones are
 * cleared now and then, so a long session does not collect them.
 */
let count = 0;

/** Measures from `start` to now; returns now, the start of whatever is measured next. */
export function measure(label: string, start: number): number {
  if (++count % 500 === 0) performance.clearMeasures();
  performance.measure(`lists ${label}`, { start });
  return performance.now();
}
