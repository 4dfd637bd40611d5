/**
 * Assign Books to {name} (spec §2): every book with an Assign checkbox, pre-ticked from the
 * record's current set; submitting replaces the whole set and returns to the list. Beyond the
 * original: a search over the books, each book's class, subject and series beside its name
 * (books of one name told apart), and a count of ticked books. The set is queued whole and,
 * before it is sent, merged three ways with the server's (src/sync/merge/merge-set.ts), so books
 * someone else assigned or removed meanwhile stay as the server has them.
 *
 * This file holds the screen and its submit; assign/ holds the ticked set (use-ticked.ts), the
 * choices' order, search and parents' names (choices.ts) and the table (ChoiceTable.tsx).
 */
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { allRecords, saveChange } from '../../app/records';
import { entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { useRecord } from '../data';
import { FormActions } from '../form/FormActions';
import { useLiveQuery } from '../live-query';
import { useNotify } from '../notices';
import { reportOutcome } from '../report-outcome';
import { saveFailureDetail } from '../save-failure';
import { usePageTitle } from '../use-page-title';
import { ChoiceTable } from './ChoiceTable';
import { shownChoices } from './choices';
import { useTicked } from './use-ticked';

export function AssignScreen({ entity, relation }: { entity: EntityDescription; relation: string }) {
  const rel = entity.relations?.[relation];
  const target = entityByName(rel?.target ?? '');
  // Decoded by the router (route-id.ts: routeIdParams).
  const id = (useParams({ strict: false }) as { id?: string }).id ?? '';
  const record = useRecord(entity, id);
  const name = record ? String(record[entity.title] ?? '') : '';
  const title = `Assign ${target.names.Many} to ${name}`;
  usePageTitle(title);
  const notify = useNotify();
  const navigate = useNavigate();
  const searchId = useId();
  const choices = useLiveQuery(() => allRecords(target), [target.name]);
  const { ticked, toggle } = useTicked(entity, target, id, relation, record);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(false);
  const back = entity.routes.list ?? '/homepage';
  const shown = useMemo(() => shownChoices(target, choices ?? [], search), [choices, search, target]);

  if (!rel) return null;
  if (record === null) {
    return (
      <section className="screen">
        <h1>{title}</h1>
        <p role="alert">{entity.names.One} not found.</p>
        <Link to={back}>Back to {entity.names.many}</Link>
      </section>
    );
  }
  const chosen = ticked ?? new Set<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const [success, failure] = rel.messages;
    try {
      const { entryId } = await saveChange({ op: 'relate', entity, key: id, relation, ids: [...chosen] });
      await navigate({ to: back });
      await reportOutcome(notify, entryId, success, failure);
    } catch (error) {
      notify('error', failure, saveFailureDetail(error));
      setBusy(false);
    }
  };

  return (
    <section className="screen">
      <h1>{title}</h1>
      <form onSubmit={submit}>
        <div className="list-tools">
          <input
            id={searchId}
            type="search"
            className="search"
            aria-label={`Search ${target.names.many}`}
            placeholder={`Search ${target.names.many}`}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <p className="muted" aria-live="polite">
            {chosen.size} {chosen.size === 1 ? target.names.one : target.names.many} ticked
          </p>
        </div>
        <ChoiceTable
          target={target}
          label={title}
          shown={shown}
          loading={choices === undefined}
          chosen={chosen}
          toggle={toggle}
        />
        <FormActions submit={`Assign ${target.names.Many}`} disabled={busy || ticked === null} back={back} />
      </form>
    </section>
  );
}
