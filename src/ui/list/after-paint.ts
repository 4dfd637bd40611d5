/**
 * Runs `run` once the next frame has painted: a frame's callback, then a task after it. In a
 * tab that paints no frames (hidden), after half a second instead.
 */
export function afterPaint(run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 500);
}
