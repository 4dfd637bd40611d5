/**
 * Names and headers as the import compares them: case, accents, spaces and punctuation set
 * aside, so 'E-mail', 'email', 'Contact Number', 'contact_no' and 'Contact number ' meet where
 * they name the same field ('École' is 'ecole').
 */
const MARKS = /\p{M}/gu;
const NOT_WORD = /[^\p{L}\p{N}]/gu;

export const foldHeader = (text: string): string =>
  text.normalize('NFD').replace(MARKS, '').toLowerCase().replace(NOT_WORD, '');

/** A value compared by name (a school, a country): accents and case aside, spaces kept single. */
export const foldName = (text: string): string =>
  text.normalize('NFD').replace(MARKS, '').toLowerCase().trim().replace(/\s+/g, ' ');
