/**
 * The last step of an order (order.ts): slots by their value's rank, ties by key, with rank and
 * key rank packed into one float64 and sorted natively.
 */
import { PACK, type Pause, sliced } from './order';

/** How many packed pairs are sorted natively at a time when the order pauses. */
const BLOCK = 8192;

/**
 * Slots ordered by their value's rank (`rankOfSlot`, by slot), ties by key. `keyRank` gives
 * each slot its key's place among all keys; `slotAtKeyRank` the slot at each key place.
 *
 * With `pause` (an order computed ahead of use), the pairs are sorted a block at a time and the
 * blocks merged, pausing between: sorted in one go, 100,000 rows held the thread 10-14 ms, and
 * the first keystroke after a list opened waited for it.
 */
export async function orderSlots(
  slots: Int32Array,
  rankOfSlot: Float64Array,
  keyRank: Int32Array,
  slotAtKeyRank: Int32Array,
  pause?: Pause,
): Promise<Int32Array> {
  const n = slots.length;
  // Beyond two million keys the pair does not fit one float64: a comparison sort.
  if (slotAtKeyRank.length >= PACK)
    return Int32Array.from(slots).sort((a, b) => rankOfSlot[a] - rankOfSlot[b] || keyRank[a] - keyRank[b]);
  const packed = new Float64Array(n);
  await sliced(n, (i) => (packed[i] = rankOfSlot[slots[i]] * PACK + keyRank[slots[i]]), pause);
  const sorted = pause ? await sortInBlocks(packed, pause) : packed.sort();
  const out = new Int32Array(n);
  await sliced(n, (i) => (out[i] = slotAtKeyRank[sorted[i] % PACK]), pause);
  return out;
}

/** `values` sorted: blocks sorted natively, then merged two by two, pausing after each. */
async function sortInBlocks(values: Float64Array, pause: Pause): Promise<Float64Array> {
  const n = values.length;
  for (let lo = 0; lo < n; lo += BLOCK) {
    values.subarray(lo, lo + BLOCK).sort();
    await pause();
  }
  let from: Float64Array = values;
  let to: Float64Array = new Float64Array(n);
  for (let width = BLOCK; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      merge(from, to, lo, Math.min(lo + width, n), Math.min(lo + 2 * width, n));
      await pause();
    }
    [from, to] = [to, from];
  }
  return from;
}

/** Merges the sorted runs from[lo, mid) and from[mid, hi) into to[lo, hi). */
function merge(from: Float64Array, to: Float64Array, lo: number, mid: number, hi: number): void {
  let i = lo;
  let j = mid;
  let k = lo;
  while (i < mid && j < hi) to[k++] = from[j] < from[i] ? from[j++] : from[i++];
  while (i < mid) to[k++] = from[i++];
  while (j < hi) to[k++] = from[j++];
}
