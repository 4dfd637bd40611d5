import { changeLabel, type QueueItem } from '../../app/outbox/outbox-queue';
import { entityByName } from '../../contract/entities';

/** How many waiting changes the question names before "and N more". */
const NAMED = 5;

/**
 * The question before discarding a change others wait for: which changes, that they cannot be
 * sent without it, and that OK discards them all while Cancel keeps every change.
 */
export function strandQuestion(item: QueueItem, stranded: readonly QueueItem[]): string {
  const named = stranded.slice(0, NAMED).map(changeLabel);
  const more = stranded.length - named.length;
  const list =
    more > 0
      ? `${named.join(', ')} and ${more} more`
      : named.length > 1
        ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`
        : named[0];
  const one = stranded.length === 1;
  const record = entityByName(item.entry.entity).names.one;
  return `${list} ${one ? 'waits' : 'wait'} for this ${record}: ${one ? 'it cannot' : 'they cannot'} be sent without it. Discard ${one ? 'both' : `all ${stranded.length + 1}`}? (Cancel keeps every change.)`;
}
