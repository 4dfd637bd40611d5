/**
 * An open edit form whose stored record changes underneath it (a pull brought another
 * device's change): the fields the administrator left alone take the new values at once, and,
 * once the audit trail has said who (change-origin.ts), a notice names them and the fields.
 * Where the administrator changed a field too, Reload takes the new value and Keep mine keeps
 * what they typed; either way the record as stored now is the form's base, so a later save
 * sends the administrator's values only where they differ from it. Changes this device made
 * (this form's own save, a queued change, another window) say nothing: the form shows what is
 * stored, or change-origin.ts finds them this device's.
 */
import { useEffect, useRef, useState } from 'react';
import { changeOrigin } from '../../app/audit/change-origin';
import type { EntityDescription } from '../../contract/entity';
import { type Arrival, arrival, reloadedFields, storedValuesOf, valuesSignature } from './changed-fields';
import type { FormValues } from './form-values';
import { focusField } from './ProblemSummary';
import type { FormValuesState } from './use-form-values';

export interface ElsewhereNotice {
  /** The administrator the trail names for the newest change; null when it could not say. */
  who: string | null;
  /** The fields changed elsewhere, in the form's order. */
  fields: string[];
  /** The ones the administrator changed too: Reload or Keep mine. */
  conflicts: string[];
  typedElsewhere: boolean;
}

interface ChangedElsewhereInput {
  entity: EntityDescription;
  /** The record's id; null on an add form, which has no stored record. */
  id: string | null;
  /** The record's values as stored now. */
  stored: FormValues;
  form: Pick<FormValuesState, 'values' | 'take'>;
  shown: readonly string[];
  cascade: boolean;
}

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

function joined(before: ElsewhereNotice | null, found: Arrival, who: string | null): ElsewhereNotice {
  if (!before)
    return { who, fields: found.changed, conflicts: found.conflicts, typedElsewhere: found.typedElsewhere };
  return {
    who: who ?? before.who,
    fields: union(before.fields, found.changed),
    conflicts: union(before.conflicts, found.conflicts),
    typedElsewhere: before.typedElsewhere || found.typedElsewhere,
  };
}

export interface ChangedElsewhere {
  notice: ElsewhereNotice | null;
  /** The new values where the administrator changed a field too. */
  reload: () => void;
  /** The administrator's values stay. */
  keepMine: () => void;
  dismiss: () => void;
}

export function useChangedElsewhere(input: ChangedElsewhereInput): ChangedElsewhere {
  const { entity, id, stored, shown } = input;
  const latest = useRef(input);
  latest.current = input;
  /** The record as the form last took it. */
  const base = useRef(stored);
  const mounted = useRef(true);
  const [notice, setNotice] = useState<ElsewhereNotice | null>(null);
  const signature = id === null ? '' : valuesSignature(entity, shown, stored);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `signature` stands for the stored values; the rest is read from `latest`.
  useEffect(() => {
    const { form, stored, shown } = latest.current;
    if (id === null) return;
    const found = arrival(entity, shown, base.current, stored, form.values);
    if (!found) return;
    base.current = stored;
    if (found.untouched.length > 0) form.take(storedValuesOf(entity, stored, found.untouched));
    // This form's own save, for one: the form shows what is stored, there is nothing to say.
    if (found.unseen.length === 0) return;
    void changeOrigin(entity, id).then((origin) => {
      if (mounted.current && !origin.here) setNotice((before) => joined(before, found, origin.who));
    });
  }, [entity, id, signature]);

  const close = (focus: string | undefined) => {
    // The button pressed goes with the notice: the focus goes to the field it was about, at the
    // press itself, so that a tap on another field right after it is not undone a frame later.
    if (focus) focusField(focus);
    setNotice(null);
  };
  return {
    notice,
    reload() {
      if (!notice) return;
      const { stored, shown, cascade, form } = latest.current;
      form.take(storedValuesOf(entity, stored, reloadedFields(entity, notice.conflicts, shown, cascade)));
      close(notice.conflicts[0]);
    },
    keepMine: () => close(notice?.conflicts[0]),
    dismiss: () => close(notice?.fields[0]),
  };
}
