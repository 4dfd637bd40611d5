import { useEffect, useRef, useState } from 'react';
import type { CheckedFile } from '../../app/csv';
import { cannotChange, ROLES } from '../../contract/accounts/roles';
import type { EntityDescription } from '../../contract/entity';
import { downloadText } from '../download';
import { dateOf, type Phase } from './phase';

const csv = () => import('../../app/csv');

const DELIVERY_POLL_MS = 500;

/** An import left queueing (a reload, a sign-out) goes on from its first row not queued. */
function useResumedImport(entity: EntityDescription, queue: (id: string, total: number) => Promise<void>) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per entity
  useEffect(() => {
    let live = true;
    void csv()
      .then(({ unfinishedImportOf }) => unfinishedImportOf(entity))
      .then((record) => {
        if (live && record) void queue(record.id, record.total);
      });
    return () => {
      live = false;
    };
  }, [entity.name]);
}

/**
 * Delivery: counted from the outbox until the server has answered every row. `setPhase` is the
 * phase's state setter, the same function on every render.
 */
function useDeliveryCount(phase: Phase, setPhase: (phase: Phase) => void) {
  const deliveringId = phase.at === 'delivering' ? phase.id : null;
  useEffect(() => {
    if (!deliveringId) return;
    let live = true;
    const poll = async () => {
      const { importDelivery } = await csv();
      const delivery = await importDelivery(deliveringId);
      if (!live) return;
      setPhase({ at: 'delivering', id: deliveringId, delivery });
      if (!delivery || delivery.delivered < delivery.total) timer = setTimeout(poll, DELIVERY_POLL_MS);
    };
    let timer = setTimeout(poll, 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [deliveringId, setPhase]);
}

/**
 * An import's course: checking the chosen file, queueing its ready rows (resumed after a reload
 * or a sign-out), then counting their delivery from the outbox until the server has answered
 * every row. `input` is the file field, cleared to import another file.
 */
export function useImport(entity: EntityDescription) {
  const [phase, setPhase] = useState<Phase>({ at: 'choose' });
  const input = useRef<HTMLInputElement>(null);

  const queue = async (id: string, total: number) => {
    setPhase({ at: 'queueing', id, queued: 0, total });
    const { queueImport } = await csv();
    try {
      const outcome = await queueImport(id, (queued, all) =>
        setPhase({ at: 'queueing', id, queued, total: all }),
      );
      if (outcome === 'queued' || outcome === 'busy') setPhase({ at: 'delivering', id, delivery: null });
    } catch (error) {
      // The role was taken away (a pull) since the import began: the rows left stay unqueued.
      const message = error instanceof Error ? error.message : '';
      if (!ROLES.some((role) => message === cannotChange(role, entity))) throw error;
      setPhase({ at: 'failed', message });
    }
  };

  useResumedImport(entity, queue);
  useDeliveryCount(phase, setPhase);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setPhase({ at: 'checking' });
    try {
      const { checkImportFile } = await csv();
      setPhase({ at: 'preview', file: await checkImportFile(entity, file) });
    } catch (error) {
      console.error('Import check failed:', error);
      setPhase({ at: 'failed', message: 'The file could not be read as CSV.' });
    }
  };

  const start = async (file: CheckedFile, skipMatched = false) => {
    if (
      file.importedAt !== null &&
      !window.confirm(`This file was imported on ${dateOf(file.importedAt)}. Import it again?`)
    )
      return;
    const { startImport } = await csv();
    const id = await startImport(entity, file, skipMatched);
    await queue(id, file.check.ready - (skipMatched ? file.check.matched.update : 0));
  };

  const downloadRefused = async (id: string) => {
    const { refusedRowsText } = await csv();
    downloadText(`${entity.table}-not-imported.csv`, await refusedRowsText(id));
  };

  const again = () => {
    if (input.current) input.current.value = '';
    setPhase({ at: 'choose' });
  };

  return { phase, input, choose, start, downloadRefused, again };
}
