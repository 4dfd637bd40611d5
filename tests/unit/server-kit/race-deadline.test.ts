import { afterEach, describe, expect, it, vi } from 'vitest';
import { raceDeadline } from '../../../server/kit/race-deadline';

describe('raceDeadline (readiness checks, shutdown, first database connection)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the work's value when it settles first, and clears its timer", async () => {
    vi.useFakeTimers();
    const late = vi.fn(() => 'late');
    await expect(raceDeadline(Promise.resolve('done'), 1_000, late)).resolves.toBe('done');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(late).not.toHaveBeenCalled();
  });

  it("gives late's value once the time has passed first", async () => {
    vi.useFakeTimers();
    const never = new Promise<string>(() => {});
    const raced = raceDeadline(never, 1_000, () => false);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(raced).resolves.toBe(false);
  });

  it('rejects with what late throws, and with what the work rejects with', async () => {
    vi.useFakeTimers();
    const raced = raceDeadline(new Promise(() => {}), 10, () => {
      throw new Error('no answer within 10 ms');
    });
    const outcome = expect(raced).rejects.toThrow('no answer within 10 ms');
    await vi.advanceTimersByTimeAsync(10);
    await outcome;
    await expect(raceDeadline(Promise.reject(new Error('refused')), 10, () => 'late')).rejects.toThrow(
      'refused',
    );
    expect(vi.getTimerCount()).toBe(0);
  });
});
