/**
 * A stored error as the administrator reads it, for the outbox screen: technical errors ('Failed
 * to fetch', an exception's text) become a plain sentence, the original kept as technical
 * detail. Apart from status-words.ts, which the top bar carries on every first load.
 */
import { UNREACHABLE } from './status-words';

/** An exception's text rather than a sentence: 'TypeError: …', or a stack. */
const EXCEPTION = /^[A-Z]\w*(Error|Exception)\b|\n\s+at |^\[object /;

export interface PlainError {
  /** What happened, in a sentence. */
  text: string;
  /** The original, when it was technical. */
  technical: string | null;
}

/** A stored error as the administrator reads it. The server's own refusals are sentences already. */
export function plainError(raw: string | null | undefined): PlainError | null {
  if (!raw) return null;
  const status = /the server answered (\d{3})/i.exec(raw)?.[1];
  if (status)
    return {
      text: `The server could not take it just now (error ${status}); it will be tried again.`,
      technical: raw,
    };
  if (UNREACHABLE.test(raw))
    return { text: 'The server could not be reached; it will be tried again.', technical: raw };
  if (/not JSON/i.test(raw)) return { text: 'The server sent a reply this app cannot read.', technical: raw };
  if (EXCEPTION.test(raw))
    return {
      text: 'Something went wrong on this device while sending; it will be tried again.',
      technical: raw,
    };
  return { text: raw, technical: null };
}
