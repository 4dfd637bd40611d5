/** What Sync now and Retry tell the administrator, in sentences (src/app/outbox/send-on-request.ts). */
import type { RetryOutcome, SendOutcome } from '../../app/outbox/outbox-queue';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function sendFeedback(outcome: SendOutcome): string {
  switch (outcome.kind) {
    case 'offline':
      return 'Not sent: this device is offline. The changes will be sent when the connection is back.';
    case 'signed-out':
      return 'Not sent: sign in again to send the changes.';
    case 'unreachable':
      return `Not sent: the server cannot be reached. ${outcome.waiting > 0 ? `${plural(outcome.waiting, 'change')} will be sent when it answers.` : ''}`.trim();
    case 'done': {
      const left = [
        outcome.waiting > 0 ? `${outcome.waiting} still waiting` : '',
        outcome.failed > 0 ? `${outcome.failed} failed` : '',
      ].filter(Boolean);
      if (outcome.sent === 0 && left.length === 0)
        return 'Nothing was waiting: every change is on the server.';
      const sent = outcome.sent > 0 ? `Sent ${plural(outcome.sent, 'change')}.` : 'Nothing could be sent.';
      return left.length > 0 ? `${sent} ${left.join(', ')}.` : `${sent} Every change is on the server.`;
    }
  }
}

export function retryFeedback(label: string, outcome: RetryOutcome): string {
  if (outcome.change === 'sent') return `Sent: ${label}.`;
  if (outcome.change === 'failed')
    return `${label} was refused again${outcome.reason ? `: ${outcome.reason}` : '.'}`;
  if (outcome.kind === 'done') return `${label} waits for another change to be sent first.`;
  return sendFeedback(outcome).replace(/^Not sent: /, `${label} was not sent: `);
}
