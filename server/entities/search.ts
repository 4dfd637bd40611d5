/**
 * A list's search: any searched column holding the text, whatever its case (ILIKE, % and _
 * taken literally; ::text so that number columns can be searched too). Three characters or
 * more are answered from the columns' trigram GIN indexes. One or two characters match most
 * rows, so no index narrows them: every row's text is read, and ILIKE lower-cases each text as
 * it goes, several times the cost of the reading itself. So a short ASCII search is written as
 * LIKE over its case spellings (`an`: an, An, aN, AN), which compares bytes, and the count and
 * pages read the (key) INCLUDE (column) index of migrations/018 instead of the table.
 *
 * The rows stay exactly ILIKE's: a row can also match through a character outside ASCII that
 * the database's lower() turns into an ASCII letter (in most locales the Kelvin sign into k and
 * İ into i); the database is asked once which of these it lowers so, and a row holding one is
 * tested with ILIKE itself.
 */
import type { Query } from '../db';
import { escapeLike, type Where } from './sql';

/** The characters outside ASCII whose lower-case form holds an ASCII letter (Unicode's only two). */
const LOWERED_TO_ASCII = ['\u0130', '\u212a'];

export type SearchCondition = (q: Query, where: Where, text: string) => Promise<void>;

/** `an` → an, An, aN, AN; null when a character is outside ASCII or the text is long. */
export function caseSpellings(text: string): string[] | null {
  if (text.length > 2 || !/^[\x20-\x7e]+$/.test(text)) return null;
  let out = [''];
  for (const ch of text) {
    const cases = [...new Set([ch.toLowerCase(), ch.toUpperCase()])].map(escapeLike);
    out = out.flatMap((start) => cases.map((c) => start + c));
  }
  return out.map((s) => `%${s}%`);
}

export function searchCondition(columns: string[]): SearchCondition {
  let lowered: Promise<string[]> | undefined;
  /** LIKE patterns for the characters this database lowers into ASCII letters. */
  const loweredToAscii = (q: Query) => {
    lowered ??= q<{ c: string; l: string }>('SELECT c, lower(c) AS l FROM unnest($1::text[]) AS c', [
      LOWERED_TO_ASCII,
    ]).then((rows) => rows.filter((r) => /[a-z]/.test(r.l)).map((r) => `%${r.c}%`));
    return lowered;
  };
  const ilike = columns.map((c) => `${c}::text ILIKE $? ESCAPE '\\'`);

  return async (q, where, text) => {
    if (!text || columns.length === 0) return;
    const like = `%${escapeLike(text)}%`;
    const spellings = caseSpellings(text);
    if (!spellings) {
      where.add(`(${ilike.join(' OR ')})`, ...ilike.map(() => like));
      return;
    }
    const specials = await loweredToAscii(q);
    const conditions = columns.map((c) =>
      specials.length === 0
        ? `${c}::text LIKE ANY ($?::text[])`
        : `(${c}::text LIKE ANY ($?::text[]) OR (${c}::text LIKE ANY ($?::text[]) AND ${c}::text ILIKE $? ESCAPE '\\'))`,
    );
    const values = specials.length === 0 ? [spellings] : [spellings, specials, like];
    where.add(`(${conditions.join(' OR ')})`, ...columns.flatMap(() => values));
  };
}
