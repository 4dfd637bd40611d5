/**
 * A big JSON reply parsed in tasks of bounded time. A page of the first sync is some two
 * megabytes, and one JSON.parse of it holds a slow tablet's main thread for a few hundred
 * ms. So a big text is scanned first (in tasks), its big arrays of small items (a list's rows)
 * are parsed some items at a time (in tasks), and what is left, a small skeleton with a
 * placeholder for each such array, in one JSON.parse. The result is the value JSON.parse gives;
 * a text that is not JSON throws a SyntaxError, as JSON.parse does.
 */
import { taskPacer } from '../../db/next-task';

export const JSON_SLICES = {
  /** Texts shorter than this (characters) are parsed in one go. */
  bigText: 256 * 1024,
  /** An array spanning more characters than this whose items are small is parsed in slices. */
  bigArray: 32 * 1024,
  /** Items parsed together, between two looks at the clock. */
  items: 100,
  /** Time (ms) one task may spend before the work goes on in the next. */
  taskMs: 10,
};

/** A big array of small items: where it starts and ends, and where each item starts. */
interface Split {
  start: number;
  end: number;
  items: number[];
}

interface Open {
  start: number;
  /** Where each item starts, for an array; null for an object. */
  items: number[] | null;
  /** Some value inside spans more than JSON_SLICES.bigArray. */
  holdsBig: boolean;
}

type Clock = () => number;

/** Gives the next task a turn when this one's time is up. */
const pacer = (now: Clock) => taskPacer(() => JSON_SLICES.taskMs, now);

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;

/** The big arrays of small items in `text`, in order, scanning it in tasks. */
async function findSplits(text: string, pace: () => Promise<void>): Promise<Split[]> {
  const splits: Split[] = [];
  const stack: Open[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    if ((i & 0xffff) === 0) await pace();
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === 91) stack.push({ start: i, items: [i + 1], holdsBig: false });
    else if (c === 123) stack.push({ start: i, items: null, holdsBig: false });
    else if (c === COMMA) stack.at(-1)?.items?.push(i + 1);
    else if (c === 93 || c === 125) {
      const open = stack.pop();
      if (!open) throw new SyntaxError('Unexpected end of a JSON value');
      const big = i + 1 - open.start > JSON_SLICES.bigArray;
      if (big && open.items && !open.holdsBig && open.items.length > 1)
        splits.push({ start: open.start, end: i + 1, items: open.items });
      const parent = stack.at(-1);
      if (big && parent) parent.holdsBig = true;
    }
  }
  if (stack.length > 0 || inString) throw new SyntaxError('Unterminated JSON text');
  return splits;
}

/** One big array's items, some at a time. */
async function parseItems(text: string, split: Split, pace: () => Promise<void>): Promise<unknown[]> {
  const out: unknown[] = [];
  const { items, end } = split;
  for (let i = 0; i < items.length; i += JSON_SLICES.items) {
    const j = Math.min(i + JSON_SLICES.items, items.length);
    // Up to the comma before item j, or the array's closing bracket.
    const upTo = j < items.length ? items[j] - 1 : end - 1;
    const part = JSON.parse(`[${text.slice(items[i], upTo)}]`) as unknown[];
    for (const item of part) out.push(item);
    await pace();
  }
  return out;
}

/** A marker no string of `text` holds, to stand for the arrays parsed apart. */
function markerFor(text: string): string {
  for (;;) {
    const nonce = Math.random().toString(36).slice(2, 12);
    if (!text.includes(nonce)) return nonce;
  }
}

/** Puts each parsed array back where its placeholder is. */
function putBack(value: unknown, arrays: ReadonlyMap<string, unknown[]>): unknown {
  if (typeof value === 'string') return arrays.get(value) ?? value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = putBack(value[i], arrays);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = putBack(record[key], arrays);
  }
  return value;
}

/**
 * A reply's body as text, decoded piece by piece as it arrives (`Response.text()` decodes two
 * megabytes in one task). A reply without a readable body (a test's stub) is read whole.
 */
export async function readText(response: Response, now: Clock = () => performance.now()): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return response.text();
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  // Pieces already received are read without a wait: the clock still ends the task in time.
  const pace = pacer(now);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(decoder.decode(value, { stream: true }));
    await pace();
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** `text` parsed as JSON, in tasks of about JSON_SLICES.taskMs when it is big. `now`: the clock. */
export async function parseJsonInSlices(
  text: string,
  now: Clock = () => performance.now(),
): Promise<unknown> {
  if (text.length < JSON_SLICES.bigText) return JSON.parse(text);
  const pace = pacer(now);
  const splits = await findSplits(text, pace);
  if (splits.length === 0) return JSON.parse(text);
  const marker = markerFor(text);
  const arrays = new Map<string, unknown[]>();
  const skeleton: string[] = [];
  let at = 0;
  for (const [n, split] of splits.entries()) {
    // The placeholder as JSON text: a NUL escape, then the marker; parsed, a string of them.
    skeleton.push(text.slice(at, split.start), `"\\u0000${marker}${n}"`);
    arrays.set(`\u0000${marker}${n}`, await parseItems(text, split, pace));
    at = split.end;
  }
  skeleton.push(text.slice(at));
  return putBack(JSON.parse(skeleton.join('')), arrays);
}
