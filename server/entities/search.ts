/**
 * A list's search: any searched column holding the text, whatever its case (ILIKE, % and _
 * taken literally; ::text so that number columns can be searched too). Three characters or
 * more are answered from the columns' trigram GIN indexes. One or two characters match most
 * rows, so no index narrows them: every row's text is read, from the (key) INCLUDE (column)
 * index of migrations/018 rather than the table. ILIKE lower-cases each text it reads, which
 * costs about twice the reading, so a one-character ASCII search is written as LIKE over its
 * spellings (`a`: a, A), which compares bytes. (Two characters take four spellings or more,
 * and LIKE over those costs more than ILIKE.)
 *
 * The rows stay exactly ILIKE's. Besides a letter's two cases, a character outside ASCII may
 * lower to it (in most locales the Kelvin sign to k and İ to i): the database is asked once
 * what it lowers these to, and each that lowers to one ASCII letter spells that letter too. A
 * database that lowers one to several characters (İ to i and a combining dot) gets ILIKE.
 */
import type { Database, Query } from '../db';
import { escapeLike, type Where } from './sql';

/** The characters outside ASCII whose lower-case form holds an ASCII letter (Unicode's only two). */
const LOWERED_TO_ASCII = ['\u0130', '\u212a'];

export type SearchCondition = (where: Where, text: string) => Promise<void>;

/** For each ASCII letter, the other characters this database lowers to it; null: no exact rule. */
type Lowering = Map<string, string[]> | null;

/** `a` → %a%, %A% (LIKE patterns); null when the text is not one ASCII character. */
function spellings(text: string, lowering: Lowering): string[] | null {
  if (!lowering || !/^[\x20-\x7e]$/.test(text)) return null;
  const lower = text.toLowerCase();
  const ways = new Set([lower, text.toUpperCase(), ...(lowering.get(lower) ?? [])]);
  return [...ways].map((c) => `%${escapeLike(c)}%`);
}

async function askLowering(q: Query): Promise<Lowering> {
  const rows = await q<{ c: string; l: string }>('SELECT c, lower(c) AS l FROM unnest($1::text[]) AS c', [
    LOWERED_TO_ASCII,
  ]);
  const lowering = new Map<string, string[]>();
  for (const { c, l } of rows) {
    if (!/[a-z]/.test(l)) continue;
    if (!/^[a-z]$/.test(l)) return null;
    lowering.set(l, [...(lowering.get(l) ?? []), c]);
  }
  return lowering;
}

/** What a database lowers to ASCII is asked once per database, whichever list searches first. */
const lowerings = new WeakMap<Database, Promise<Lowering>>();
function loweringOf(db: Database): Promise<Lowering> {
  let asked = lowerings.get(db);
  if (!asked) {
    asked = askLowering(db.query).catch((err) => {
      lowerings.delete(db);
      throw err;
    });
    lowerings.set(db, asked);
  }
  return asked;
}

export function searchCondition(columns: string[], db: Database): SearchCondition {
  const ilike = `(${columns.map((c) => `${c}::text ILIKE $? ESCAPE '\\'`).join(' OR ')})`;
  const like = `(${columns.map((c) => `${c}::text LIKE ANY ($?::text[])`).join(' OR ')})`;

  return async (where, text) => {
    if (!text || columns.length === 0) return;
    const short = text.length === 1 ? spellings(text, await loweringOf(db)) : null;
    if (short) where.add(like, ...columns.map(() => short));
    else where.add(ilike, ...columns.map(() => `%${escapeLike(text)}%`));
  };
}
