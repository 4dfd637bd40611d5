import type { DeliveryCount } from '../../app/csv';

/** The delivery of the queued rows: how many so far, then how many imported and refused. */
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
    </>
  );
}
