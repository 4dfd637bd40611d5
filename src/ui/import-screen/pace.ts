/**
 * The pace of an import's delivery, from how many rows the server had answered at each count:
 * rows a second over the last WINDOW_MS (recent, so a server that slows down or a network that
 * comes back shows at once), and the time left at that rate, in words an administrator reads
 * at a glance. Rows arrive a batch at a time (a hundred rows, all hashed before they are
 * stored), so the window spans several batches.
 */

/** Rows the server had answered at a moment (ms since the epoch). */
export interface DeliverySample {
  at: number;
  delivered: number;
}

export interface DeliveryPace {
  rowsPerSecond: number;
  secondsLeft: number;
}

export const WINDOW_MS = 30_000;
/** Less than this between the first and last sample says nothing yet of a rate. */
const SHORTEST_SPAN_MS = 2_000;

/**
 * The samples with `sample` added, those older than the window dropped, but the last one
 * before the window kept as its start, so that a rate spans the whole window.
 */
export function withSample(samples: readonly DeliverySample[], sample: DeliverySample): DeliverySample[] {
  const kept = [...samples, sample];
  const firstInside = kept.findIndex((s) => s.at >= sample.at - WINDOW_MS);
  return kept.slice(Math.max(0, firstInside - 1));
}

/** The pace over the samples, or null while they show no progress or span too little time. */
export function paceOf(samples: readonly DeliverySample[], total: number): DeliveryPace | null {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at - first.at < SHORTEST_SPAN_MS) return null;
  const rows = last.delivered - first.delivered;
  if (rows <= 0) return null;
  const rowsPerSecond = rows / ((last.at - first.at) / 1000);
  return { rowsPerSecond, secondsLeft: Math.max(0, total - last.delivered) / rowsPerSecond };
}

const rows = (count: number) => (count === 1 ? '1 row' : `${count} rows`);

/** "34 rows a second", "2.5 rows a second", "40 rows a minute". */
export function rateText(rowsPerSecond: number): string {
  if (rowsPerSecond < 1) return `${rows(Math.max(1, Math.round(rowsPerSecond * 60)))} a minute`;
  const shown = rowsPerSecond < 10 ? Math.round(rowsPerSecond * 10) / 10 : Math.round(rowsPerSecond);
  return `${rows(shown)} a second`;
}

/**
 * "less than a minute left", "about 7 min left", "about 2 h 10 min left": whole minutes (tens
 * past the hour), so that the words change seldom and a screen reader is not kept talking.
 */
export function timeLeftText(seconds: number): string {
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const tens = Math.round(minutes / 10) * 10;
  const hours = Math.floor(tens / 60);
  const rest = tens % 60;
  return rest === 0 ? `about ${hours} h left` : `about ${hours} h ${rest} min left`;
}
