/**
 * Cascades (spec §4): in a cascading form, a select's options depend on the levels above it
 * (`dependsOn`), and changing a level clears every level that depends on it, directly or not.
 */
import type { EntityDescription } from './entity';

/** Fields whose options depend, directly or not, on `field`: they are cleared when it changes. */
export function dependants(entity: EntityDescription, field: string, fields: readonly string[]): string[] {
  const out = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const name of fields) {
      const deps = entity.fields[name]?.dependsOn ?? [];
      if (!out.has(name) && deps.some((d) => d === field || out.has(d))) {
        out.add(name);
        grew = true;
      }
    }
  }
  return [...out];
}
