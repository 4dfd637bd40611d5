/**
 * A set relation replaced offline meets the set as the server has it now, merged three ways
 * (design brief §4): the records this device added stay added, the ones it removed stay
 * removed, and what someone else added or removed meanwhile stays as the server has it.
 * `base` is the set when this device began changing it. All ids are server ids.
 */
export function mergeSet(
  base: readonly string[],
  mine: readonly string[],
  server: readonly string[],
): string[] {
  const added = mine.filter((id) => !base.includes(id));
  const removed = new Set(base.filter((id) => !mine.includes(id)));
  const merged = [...server.filter((id) => !removed.has(id))];
  for (const id of added) if (!merged.includes(id)) merged.push(id);
  return merged;
}
