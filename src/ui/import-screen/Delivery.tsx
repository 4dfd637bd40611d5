import type { DeliveryCount } from '../../app/csv';

/**
 * The delivery of the queued rows: how many so far, then how many imported, refused by the
 * server and left out at the preview for their problems.
 */
export function Delivery({ delivery }: { delivery: DeliveryCount }) {
  if (delivery.delivered < delivery.total)
    return (
      <p>
        {delivery.delivered} of {delivery.total} delivered
      </p>
    );
  return (
    <>
      <p>{delivery.imported} imported</p>
      <p>{delivery.refused.length} refused</p>
      {delivery.skipped > 0 && <p>{delivery.skipped} left out at the preview for their problems</p>}
    </>
  );
}
