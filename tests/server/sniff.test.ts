/** The content check behind every upload: kinds by their first bytes, never by name. */
import { describe, expect, it } from 'vitest';
import { canDetect, detectKind } from '../../server/uploads/sniff';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('detectKind', () => {
  it.each([
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe1]), ['jpg', 'jpeg']],
    ['png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]), ['png']],
    ['gif 87a', bytes('GIF87a'), ['gif']],
    ['gif 89a', bytes('GIF89a'), ['gif']],
    ['pdf', bytes('%PDF-1.4'), ['pdf']],
    ['mp3 with an ID3 tag', bytes('ID3', [3, 0]), ['mp3']],
    ['mp3 starting with a frame', bytes([0xff, 0xfb, 0x90]), ['mp3']],
    ['mp4', bytes([0, 0, 0, 0x18], 'ftypmp42'), ['mp4']],
  ])('%s', (_name, head, exts) => {
    expect(detectKind(head)).toEqual(exts);
  });

  it.each([
    ['text', bytes('hello, world')],
    ['a PNG signature cut short', bytes([0x89], 'PNG', [0x0d, 0x0a])],
    ['GIF90a', bytes('GIF90a')],
    ['PDF without the dash', bytes('%PDF1')],
    ['nothing', new Uint8Array(0)],
  ])('%s is none of them', (_name, head) => {
    expect(detectKind(head)).toEqual([]);
  });

  it('knows which allowed types it can check', () => {
    expect(['jpg', 'jpeg', 'png', 'gif', 'pdf', 'mp3', 'mp4'].every(canDetect)).toBe(true);
    expect(canDetect('docx')).toBe(false);
  });
});
