import { describe, expect, it } from 'vitest';
import { highest, lowest } from '../../../src/contract/extremes';
import type { OutboxEntry } from '../../../src/db/outbox/outbox-entry';
import { staleWarning } from '../../../src/sync/queue-view';

describe('lowest and highest of many numbers', () => {
  it('agree with Math.min and Math.max, and give the infinities of an empty list', () => {
    const values = [5, -3, 12, 0, 7.5];
    expect(lowest(values)).toBe(-3);
    expect(highest(values)).toBe(12);
    expect(lowest([])).toBe(Number.POSITIVE_INFINITY);
    expect(highest(new Set<number>())).toBe(Number.NEGATIVE_INFINITY);
  });

  it('take more values than a call can take as arguments (500,000: an import of that many rows)', () => {
    const many = Array.from({ length: 500_000 }, (_, i) => i + 1);
    expect(() => Math.min(...many)).toThrow(RangeError);
    expect(lowest(many)).toBe(1);
    expect(highest(many)).toBe(500_000);
  });

  it("let the outbox screen's stale warning read a queue of 500,000 waiting changes", () => {
    const day = 24 * 60 * 60 * 1000;
    const now = Date.UTC(2026, 10, 26);
    const entries = Array.from(
      { length: 500_000 },
      (_, i) => ({ status: 'pending', createdAt: now - (i === 7 ? 3 * day : 1000) }) as OutboxEntry,
    );
    expect(staleWarning(entries, now)).toMatch(/^The oldest change has been waiting for 3 days/);
  });
});
