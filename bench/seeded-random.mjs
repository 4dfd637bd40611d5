/**
 * mulberry32: a small seeded generator for the benches, so a run draws the same values each
 * time (the replies the fault proxy loses) and Node and the page draw the same rows (the list
 * bench's students). No Node API: the bench pages bundle it too.
 */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
