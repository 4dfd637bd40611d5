/** The content check behind every upload: kinds by their first bytes, never by name. */
import { describe, expect, it } from 'vitest';
import { canDetect, detectKind } from '../../../server/uploads/sniff';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

/** A ZIP's local headers for entries with these names, each followed by a little "compressed" data. */
function zip(...names: string[]): Uint8Array {
  const parts: number[] = [];
  for (const name of names) {
    const header = new Array(30).fill(0);
    header.splice(0, 4, 0x50, 0x4b, 0x03, 0x04);
    header[26] = name.length;
    parts.push(...header, ...[...name].map((c) => c.charCodeAt(0)), ...new Array(40).fill(7));
  }
  return new Uint8Array(parts);
}

/** An OpenDocument file: its first entry `mimetype`, stored, holding the type. */
function odf(mime: string): Uint8Array {
  const head = zip('mimetype');
  return new Uint8Array([
    ...head.slice(0, 38),
    ...[...mime].map((c) => c.charCodeAt(0)),
    ...zip('content.xml'),
  ]);
}

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
    ['mp4 (isom)', bytes([0, 0, 0, 0x20], 'ftypisom'), ['mp4']],
    ['a Word document', zip('[Content_Types].xml', '_rels/.rels', 'word/document.xml'), ['docx', 'zip']],
    ['a PowerPoint deck', zip('[Content_Types].xml', 'ppt/slides/slide1.xml'), ['pptx', 'zip']],
    ['an Excel workbook', zip('[Content_Types].xml', 'xl/workbook.xml'), ['xlsx', 'zip']],
    ['an OpenDocument text', odf('application/vnd.oasis.opendocument.text'), ['odt', 'zip']],
    ['an OpenDocument presentation', odf('application/vnd.oasis.opendocument.presentation'), ['odp', 'zip']],
    ['a plain zip', zip('index.html', 'game.js'), ['zip']],
  ])('%s', (_name, head, exts) => {
    expect(detectKind(head)).toEqual(exts);
  });

  it.each([
    ['text', bytes('hello, world')],
    ['a PNG signature cut short', bytes([0x89], 'PNG', [0x0d, 0x0a])],
    ['GIF90a', bytes('GIF90a')],
    ['PDF without the dash', bytes('%PDF1')],
    ['nothing', new Uint8Array(0)],
    ['a HEIC photo (ISO media, not a video)', bytes([0, 0, 0, 0x18], 'ftypheic')],
    ['a QuickTime movie', bytes([0, 0, 0, 0x14], 'ftypqt  ')],
  ])('%s is none of them', (_name, head) => {
    expect(detectKind(head)).toEqual([]);
  });

  it('knows which allowed types it can check', () => {
    const known = [
      'jpg',
      'jpeg',
      'png',
      'gif',
      'pdf',
      'mp3',
      'mp4',
      'zip',
      'docx',
      'pptx',
      'xlsx',
      'odt',
      'odp',
      'ods',
    ];
    expect(known.every(canDetect)).toBe(true);
    expect(canDetect('doc')).toBe(false);
    expect(canDetect('exe')).toBe(false);
  });
});
