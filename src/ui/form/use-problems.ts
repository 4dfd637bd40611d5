/**
 * The form's problems at its fields: those its own check finds, a value another record holds,
 * and, on an edit opened from the outbox, the field the server refused. After each refused
 * submit focus goes to the first problem, once it is drawn; correcting a field clears its
 * problem (and those of the levels it clears below it).
 */
import { useEffect, useState } from 'react';
import { refusedField } from '../../app/records';
import type { EntityDescription } from '../../contract/entity';
import type { FieldProblem } from '../../contract/validation';
import { focusField } from './ProblemSummary';

export function useProblems(entity: EntityDescription, id: string | null) {
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  /** Bumped by each refused submit: focus then goes to the first problem, once it is drawn. */
  const [refusals, setRefusals] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each refused submit, not when problems change as fields are corrected
  useEffect(() => {
    if (refusals > 0 && problems[0]) focusField(problems[0].field);
  }, [refusals]);

  // Opened to correct a change the server refused at a field (Edit on the outbox): said there.
  useEffect(() => {
    if (id !== null)
      void refusedField(entity, id).then(
        (refused) => refused && setProblems([{ ...refused, missing: false }]),
      );
  }, [entity, id]);

  return {
    problems,
    /** Shows these problems (none: the form may be saved); true when there are any. */
    refuse(found: FieldProblem[]): boolean {
      setProblems(found);
      if (found.length > 0) setRefusals((n) => n + 1);
      return found.length > 0;
    },
    /** Fields corrected: their problems go. */
    clear(fields: ReadonlySet<string>): void {
      setProblems((all) => all.filter((p) => !fields.has(p.field)));
    },
    errorOf: (name: string) => problems.find((p) => p.field === name)?.message,
  };
}
