import { useEffect, useState } from 'react';
import { usedValueWarnings } from '../../app/used-values';
import type { EntityDescription } from '../../contract/entity';
import { usedValueRules } from '../../contract/used-values';

/** How many files the values hold for an add of several (each a record). */
function filesIn(entity: EntityDescription, values: Readonly<Record<string, unknown>>): number {
  for (const [name, spec] of Object.entries(entity.fields)) {
    const value = values[name];
    if (spec.several && Array.isArray(value)) return value.length;
  }
  return 1;
}

/**
 * By field, the warnings for values other records of the same parent hold (FieldSpec.flagUsed),
 * looked up again whenever a value they depend on changes.
 */
export function useUsedWarnings(
  entity: EntityDescription,
  values: Readonly<Record<string, unknown>>,
  own: string | null,
): Record<string, string> {
  const rules = usedValueRules(entity);
  const files = filesIn(entity, values);
  const depends = JSON.stringify(rules.map((r) => [values[r.field], values[r.within]]));
  const [warnings, setWarnings] = useState<Record<string, string>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: `depends` stands for the values read.
  useEffect(() => {
    if (rules.length === 0) return;
    let current = true;
    void usedValueWarnings(entity, values, own, files).then((found) => {
      if (current) setWarnings(found);
    });
    return () => {
      current = false;
    };
  }, [entity, depends, own, files]);
  return warnings;
}
