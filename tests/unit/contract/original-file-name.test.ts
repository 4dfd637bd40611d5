/**
 * The name a file had on the device, as the server keeps it and a download takes it: only its
 * last path part, no control characters, at most 255 characters with its extension kept.
 */
import { describe, expect, it } from 'vitest';
import { cleanOriginalName, ORIGINAL_NAME_MAX } from '../../../src/contract/original-file-name';

describe('cleanOriginalName', () => {
  it('keeps a name as the administrator chose it, spaces and scripts included', () => {
    expect(cleanOriginalName('Big Teacher Guide.pdf')).toBe('Big Teacher Guide.pdf');
    expect(cleanOriginalName('पाठ 3 – अभ्यास.docx')).toBe('पाठ 3 – अभ्यास.docx');
  });

  it('takes the last part of a path, as old browsers sent it', () => {
    expect(cleanOriginalName('C:\\fakepath\\notes.pdf')).toBe('notes.pdf');
    expect(cleanOriginalName('../../etc/passwd')).toBe('passwd');
  });

  it('drops control characters and spaces around the name', () => {
    expect(cleanOriginalName(' a\r\nb\u0000.png\t')).toBe('ab.png');
  });

  it('has no name for nothing, a bare path, or the placeholder of a Blob without one', () => {
    for (const raw of [undefined, null, 42, '', '   ', 'dir/', '..', 'blob'])
      expect(cleanOriginalName(raw)).toBeNull();
  });

  it('cuts a long name to the limit, its extension kept', () => {
    const long = `${'ग'.repeat(300)}.pdf`;
    const cut = cleanOriginalName(long)!;
    expect(Array.from(cut)).toHaveLength(ORIGINAL_NAME_MAX);
    expect(cut.endsWith('ग.pdf')).toBe(true);
  });
});
