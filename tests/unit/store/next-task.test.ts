/**
 * A turn of the task queue in Node (the tests, the scale-out bench's device threads): the
 * process is kept alive while a turn is owed and not after, so a thread whose only pending
 * work is a turn finishes it instead of ending in the middle of its work, and still ends by
 * itself once its work is done.
 */
import { describe, expect, it } from 'vitest';
import { nextTask } from '../../../src/db/next-task';

/** Message ports keeping this process alive. */
const livePorts = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;

describe('a turn of the task queue in Node', () => {
  it('keeps the process alive while a turn is owed, and not after', async () => {
    await nextTask();
    const idle = livePorts();
    const turns = [nextTask(), nextTask()];
    expect(livePorts()).toBe(idle + 1);
    await turns[0];
    expect(livePorts()).toBe(idle + 1);
    await turns[1];
    expect(livePorts()).toBe(idle);
  });
});
