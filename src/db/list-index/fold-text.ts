/**
 * Text as search compares it: accents and case set aside ('José' is found by 'jose', 'JOSE'
 * and 'josé'). Lower-cased, decomposed (NFD) and its combining marks dropped (lower-casing
 * first, so that marks it makes, as in 'İ', go too); plain ASCII, most of any list, skips the
 * decomposition.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
const ASCII = /^[\x00-\x7f]*$/;
const MARKS = /\p{M}/gu;

export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return text.toLowerCase().normalize('NFD').replace(MARKS, '');
}
