/**
 * A big JSON reply is parsed in tasks: the value is exactly JSON.parse's, whatever the text
 * holds (brackets, quotes and escapes in strings, nested and empty arrays, a bare list), other
 * tasks run while it is parsed, and a text that is not JSON is refused as JSON.parse refuses it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JSON_SLICES, parseJsonInSlices, readText } from '../../../src/sync/api/sliced-json';

const sizes = { ...JSON_SLICES };
afterEach(() => Object.assign(JSON_SLICES, sizes));

/** Small sizes, so that a few kilobytes make a big text. */
function smallSlices() {
  JSON_SLICES.bigText = 1000;
  JSON_SLICES.bigArray = 300;
  JSON_SLICES.items = 7;
  JSON_SLICES.taskMs = 0;
}

const awkward = (i: number) => ({
  student_id: i,
  student_name: `Pupil "${i}" [a], {b} \\ ,`,
  note: i % 3 === 0 ? 'line\nbreak \u00e9 \ud83d\ude00 \u0000' : null,
  books: i % 4 === 0 ? [] : [i, i + 1, { nested: [i, [i]] }],
  ok: i % 2 === 0,
  score: i / 7,
});

const pageOf = (n: number) => ({
  success: true,
  cursor: '42',
  changes: [
    { entity: 'student', reply: { students: Array.from({ length: n }, (_, i) => awkward(i)), more: true } },
    { entity: 'class', reply: { classes: [] } },
    { entity: 'school', reply: { schools: Array.from({ length: n / 2 }, (_, i) => ({ id: String(i) })) } },
  ],
});

describe('parseJsonInSlices', () => {
  it('gives exactly what JSON.parse gives for a big page', async () => {
    smallSlices();
    for (const value of [pageOf(200), pageOf(1), Array.from({ length: 300 }, (_, i) => awkward(i))]) {
      const text = JSON.stringify(value, null, value === null ? 0 : 1);
      expect(await parseJsonInSlices(text)).toEqual(JSON.parse(text));
    }
  });

  it('gives the same for a text that holds a placeholder-like string', async () => {
    smallSlices();
    const value = { s: '\u00000', rows: Array.from({ length: 100 }, (_, i) => ({ s: `\u0000x${i}` })) };
    const text = JSON.stringify(value);
    expect(await parseJsonInSlices(text)).toEqual(value);
  });

  it('lets other tasks run while a big text is parsed', async () => {
    smallSlices();
    let timerFired = false;
    setTimeout(() => {
      timerFired = true;
    }, 0);
    const seen: boolean[] = [];
    let t = 0;
    const text = JSON.stringify(pageOf(20_000));
    await parseJsonInSlices(text, () => {
      seen.push(timerFired);
      t += 1;
      return t;
    });
    expect(seen[0]).toBe(false);
    expect(seen.at(-1)).toBe(true);
  });

  it('refuses what is not JSON', async () => {
    smallSlices();
    const text = JSON.stringify(pageOf(100));
    for (const broken of [
      text.slice(0, -1),
      `${text}]`,
      text.replace('"success"', 'success'),
      `${text.slice(0, 500)}"`,
    ])
      await expect(parseJsonInSlices(broken)).rejects.toThrow(SyntaxError);
  });
});

describe('readText', () => {
  it('decodes a body that arrives in pieces, characters cut between them included', async () => {
    const text = `{"name":"Zoë 😀 ${'é'.repeat(5000)}"}`;
    const bytes = new TextEncoder().encode(text);
    // Pieces of 7 bytes: two- and four-byte characters fall across them.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    expect(await readText(new Response(body))).toBe(text);
  });
});
