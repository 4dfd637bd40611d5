/**
 * What a screen reader hears of lists being received (src/app/sync-status/progress-announcement.ts): a
 * list's start at once, then at most every ANNOUNCE_EVERY_MS while it goes on, and its end.
 */
import { describe, expect, it } from 'vitest';
import {
  ANNOUNCE_EVERY_MS,
  NO_ANNOUNCEMENT,
  progressAnnouncement,
} from '../../../src/app/sync-status/progress-announcement';
import type { ListProgress } from '../../../src/db/meta';

const at = (received: number, total = 100_000): ListProgress => ({ received, total, cursor: null });

describe('progress announcements', () => {
  it('speak at the start, now and then while pages arrive, and at the end', () => {
    const heard: (string | null)[] = [];
    let state = NO_ANNOUNCEMENT;
    const step = (progress: [string, ListProgress][], now: number) => {
      const next = progressAnnouncement(state, progress, now);
      state = next.state;
      heard.push(next.message);
    };
    step([], 0);
    step([['students', at(2_500)]], 1_000);
    // Pages every second: quiet until the interval has passed since the last announcement.
    for (let s = 2; s <= 16; s++) step([['students', at(2_500 * s)]], s * 1_000);
    step([['students', at(42_500)]], 17_000);
    step([], 18_000);
    step([], 19_000);
    expect(heard.filter((m) => m !== null)).toEqual([
      'Receiving Students 2,500 of 100,000',
      'Receiving Students 40,000 of 100,000',
      'Students received',
    ]);
    expect(heard.indexOf('Receiving Students 40,000 of 100,000')).toBe(1 + ANNOUNCE_EVERY_MS / 1_000);
  });

  it('says a list was received and the next one started in one breath', () => {
    const first = progressAnnouncement(NO_ANNOUNCEMENT, [['teachers', at(2_500, 4_000)]], 0);
    const next = progressAnnouncement(first.state, [['students', at(2_500)]], 1_000);
    expect(next.message).toBe('Teachers received. Receiving Students 2,500 of 100,000');
  });
});
