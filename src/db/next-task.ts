/**
 * Ends the current task and goes on in a new one, so that long work on the main thread leaves
 * room between its parts for input, painting and the answers of IndexedDB. Chromium's
 * `scheduler.yield()` goes on ahead of other queued work (the work is not pushed to the back of
 * the queue); elsewhere a MessageChannel turn, sooner than a timer (clamped after a few nested).
 */
type Yielding = { scheduler?: { yield?: () => Promise<void> } };
/** Node's ports: one that listens keeps the process (or worker thread) alive while referenced. */
type NodePort = MessagePort & { ref?: () => void; unref?: () => void };

let channel: MessageChannel | undefined;
const waiting: (() => void)[] = [];

/**
 * In Node the listening port is referenced only while a turn is owed: unreferenced, a process
 * (a worker thread running the sync) whose only pending work was a turn would end in the
 * middle of it; referenced all the time, it would never end by itself.
 */
function channelTurn(): Promise<void> {
  if (!channel) {
    channel = new MessageChannel();
    const listening = channel.port1 as NodePort;
    listening.onmessage = () => {
      waiting.shift()?.();
      if (waiting.length === 0) listening.unref?.();
    };
  }
  (channel.port1 as NodePort).ref?.();
  const port = channel.port2;
  return new Promise((resolve) => {
    waiting.push(resolve);
    port.postMessage(null);
  });
}

export function nextTask(): Promise<void> {
  const scheduler = (globalThis as Yielding).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return channelTurn();
}

/**
 * A pace for long work on the main thread: each call goes on at once while the task has run
 * less than `taskMs()` (read at every call, so callers can tune it), else ends the task
 * (nextTask) and starts timing the next. `now` is the clock.
 */
export function taskPacer(taskMs: () => number, now: () => number = () => performance.now()) {
  let started = now();
  return async (): Promise<void> => {
    if (now() - started < taskMs()) return;
    await nextTask();
    started = now();
  };
}
