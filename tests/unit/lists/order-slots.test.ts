/**
 * The last step of a list's order: slots by rank, ties by key, the same whether it is computed
 * in one go (a query) or in blocks with pauses between (ahead of use), which must let other
 * work through.
 */
import { describe, expect, it } from 'vitest';
import type { Pause } from '../../../src/db/list-engine/order';
import { orderSlots } from '../../../src/db/list-engine/order-slots';

/** `n` slots with a few hundred ranks (many ties), keys in a shuffled order, some slots dead. */
function rows(n: number) {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const rankOfSlot = Float64Array.from({ length: n }, () => next() % 300);
  const slotAtKeyRank = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [slotAtKeyRank[i], slotAtKeyRank[j]] = [slotAtKeyRank[j], slotAtKeyRank[i]];
  }
  const keyRank = new Int32Array(n);
  for (let r = 0; r < n; r++) keyRank[slotAtKeyRank[r]] = r;
  // Live slots in key order, as the index passes them; every tenth slot is gone.
  const slots = slotAtKeyRank.filter((s) => s % 10 !== 0);
  return { slots, rankOfSlot, keyRank, slotAtKeyRank };
}

describe('orderSlots', () => {
  it('orders by rank and then by key, in one go and in paused blocks alike', async () => {
    const { slots, rankOfSlot, keyRank, slotAtKeyRank } = rows(50_001);
    const expected = Int32Array.from(slots).sort(
      (a, b) => rankOfSlot[a] - rankOfSlot[b] || keyRank[a] - keyRank[b],
    );
    let pauses = 0;
    const pause: Pause = async () => {
      pauses++;
    };
    const atOnce = await orderSlots(slots, rankOfSlot, keyRank, slotAtKeyRank);
    expect(pauses).toBe(0);
    const paused = await orderSlots(slots, rankOfSlot, keyRank, slotAtKeyRank, pause);
    expect(Array.from(atOnce)).toEqual(Array.from(expected));
    expect(Array.from(paused)).toEqual(Array.from(expected));
    // 45,000 live slots: six blocks sorted and five merges, each followed by a pause.
    expect(pauses).toBeGreaterThanOrEqual(11);
  });

  it('orders an empty list and a single row', async () => {
    const none = new Int32Array(0);
    expect(Array.from(await orderSlots(none, new Float64Array(0), none, none, async () => {}))).toEqual([]);
    const one = Int32Array.of(0);
    expect(Array.from(await orderSlots(one, Float64Array.of(3), one, one, async () => {}))).toEqual([0]);
  });
});
