import { useEffect, useRef, useState } from 'react';
import type { DeliveryCount } from '../../app/csv';
import { type DeliveryPace, type DeliverySample, paceOf, rateText, timeLeftText, withSample } from './pace';

/** The pace shown is renewed at most this often: it is read aloud (the screen's status region). */
const PACE_SHOWN_EVERY_MS = 5_000;

/**
 * The delivery's pace from each count as it comes (every poll, progress or not, so a stalled
 * delivery's rate falls), shown anew at most every PACE_SHOWN_EVERY_MS.
 */
function usePace(delivery: DeliveryCount): DeliveryPace | null {
  const samples = useRef<DeliverySample[]>([]);
  const shownAt = useRef(0);
  const [pace, setPace] = useState<DeliveryPace | null>(null);
  useEffect(() => {
    const now = Date.now();
    samples.current = withSample(samples.current, { at: now, delivered: delivery.delivered });
    const next = paceOf(samples.current, delivery.total);
    if (next === null || now - shownAt.current < PACE_SHOWN_EVERY_MS) return;
    shownAt.current = now;
    setPace(next);
  }, [delivery]);
  return pace;
}

/**
 * The delivery of the queued rows: how many so far, at what rate and how long it will take
 * still, then how many imported, refused by the server and left out at the preview for their
 * problems.
 */
export function Delivery({ delivery }: { delivery: DeliveryCount }) {
  const pace = usePace(delivery);
  if (delivery.delivered < delivery.total)
    return (
      <>
        <p>
          {delivery.delivered} of {delivery.total} delivered
        </p>
        {pace && (
          <p className="import-pace">
            {rateText(pace.rowsPerSecond)}, {timeLeftText(pace.secondsLeft)}
          </p>
        )}
      </>
    );
  return (
    <>
      <p>{delivery.imported} imported</p>
      <p>{delivery.refused.length} refused</p>
      {delivery.skipped > 0 && <p>{delivery.skipped} left out at the preview for their problems</p>}
    </>
  );
}
