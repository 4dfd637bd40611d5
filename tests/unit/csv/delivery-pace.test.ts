/**
 * The import screen's pace of delivery (src/ui/import-screen/pace.ts): rows a second over the
 * recent window, the time left at that rate, and the words shown for both.
 */
import { describe, expect, it } from 'vitest';
import {
  type DeliverySample,
  paceOf,
  rateText,
  timeLeftText,
  WINDOW_MS,
  withSample,
} from '../../../src/ui/import-screen/pace';

const samplesOf = (points: [seconds: number, delivered: number][]): DeliverySample[] =>
  points.reduce<DeliverySample[]>(
    (samples, [seconds, delivered]) => withSample(samples, { at: seconds * 1000, delivered }),
    [],
  );

describe('delivery pace', () => {
  it('is the rows answered over the time between the first and last sample, and the rest at that rate', () => {
    const pace = paceOf(
      samplesOf([
        [0, 0],
        [6, 100],
        [12, 200],
        [20, 300],
      ]),
      2000,
    );
    expect(pace?.rowsPerSecond).toBe(15);
    expect(pace?.secondsLeft).toBeCloseTo(1700 / 15);
  });

  it('says nothing until there is progress over a span long enough to tell', () => {
    expect(paceOf([], 10)).toBeNull();
    expect(paceOf(samplesOf([[0, 0]]), 10)).toBeNull();
    expect(
      paceOf(
        samplesOf([
          [0, 0],
          [1, 5],
        ]),
        10,
      ),
    ).toBeNull();
    expect(
      paceOf(
        samplesOf([
          [0, 5],
          [10, 5],
        ]),
        10,
      ),
    ).toBeNull();
  });

  it('follows the recent window: an early burst does not hide a slowdown', () => {
    const points: [number, number][] = [
      [0, 0],
      [5, 1000],
    ];
    for (let s = 10; s <= 120; s += 5) points.push([s, 1000 + (s - 5) * 2]);
    const samples = samplesOf(points);
    // The last sample before the window is kept as its start; nothing older.
    expect(samples[0].at).toBeLessThan(120_000 - WINDOW_MS);
    expect(samples[1].at).toBeGreaterThanOrEqual(120_000 - WINDOW_MS);
    expect(paceOf(samples, 2000)?.rowsPerSecond).toBe(2);
  });

  it('falls while the server answers nothing, and ends at nothing left', () => {
    const moving = samplesOf([
      [0, 0],
      [10, 100],
    ]);
    const stalled = withSample(withSample(moving, { at: 20_000, delivered: 100 }), {
      at: 30_000,
      delivered: 100,
    });
    expect(paceOf(stalled, 200)!.rowsPerSecond).toBeLessThan(paceOf(moving, 200)!.rowsPerSecond);
    expect(
      paceOf(
        samplesOf([
          [0, 0],
          [10, 200],
        ]),
        200,
      )?.secondsLeft,
    ).toBe(0);
  });

  it('words the rate and the time left', () => {
    expect(rateText(34.4)).toBe('34 rows a second');
    expect(rateText(2.46)).toBe('2.5 rows a second');
    expect(rateText(0.5)).toBe('30 rows a minute');
    expect(rateText(0.001)).toBe('1 row a minute');
    expect(rateText(1)).toBe('1 row a second');
    expect(timeLeftText(0)).toBe('less than a minute left');
    expect(timeLeftText(59)).toBe('less than a minute left');
    expect(timeLeftText(100)).toBe('about 2 min left');
    expect(timeLeftText(59 * 60)).toBe('about 59 min left');
    expect(timeLeftText(2 * 3600 + 9 * 60)).toBe('about 2 h 10 min left');
    expect(timeLeftText(3 * 3600 + 2 * 60)).toBe('about 3 h left');
  });
});
