import type { CheckedFile, DeliveryCount } from '../../app/csv';

/** Where an import stands: choosing a file, checking it, its preview, queueing, delivering. */
export type Phase =
  | { at: 'choose' }
  | { at: 'checking' }
  | { at: 'preview'; file: CheckedFile }
  | { at: 'queueing'; id: string; queued: number; total: number }
  | { at: 'delivering'; id: string; delivery: DeliveryCount | null }
  | { at: 'failed'; message: string };

/** When a file was imported before, as the preview and the confirmation say it. */
export const dateOf = (at: number) =>
  new Date(at).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
