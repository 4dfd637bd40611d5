/**
 * CSV text to rows, with the file's line where each starts (the header is line 1): papaparse
 * (quoted fields with delimiters, quotes and line breaks; comma or semicolon found from the
 * text), in chunks, so a worker hands rows on as they come. A byte order mark is dropped;
 * blank lines are counted and skipped.
 */
import Papa from 'papaparse';

export interface ParsedRow {
  cells: string[];
  line: number;
}

const CHUNK_BYTES = 256 * 1024;

const newlines = (cells: readonly string[]) => {
  let n = 0;
  for (const c of cells) for (let i = c.indexOf('\n'); i !== -1; i = c.indexOf('\n', i + 1)) n++;
  return n;
};

/**
 * Parses the text; `onHeader` hears the header row, `onRows` each chunk's data rows. Throws
 * when the text is not CSV papaparse can read (an unclosed quote at the end is read to the end).
 */
export function parseCsv(
  text: string,
  onHeader: (header: string[]) => void,
  onRows: (rows: ParsedRow[]) => void,
): void {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let line = 1;
  let header: string[] | null = null;
  // papaparse streams a string in chunks too; its types offer `chunk` only for files.
  const config = {
    delimitersToGuess: [',', ';', '\t'],
    skipEmptyLines: false,
    chunkSize: CHUNK_BYTES,
    chunk: (result: Papa.ParseResult<string[]>) => {
      const rows: ParsedRow[] = [];
      for (const cells of result.data) {
        const at = line;
        line += 1 + newlines(cells);
        if (cells.length === 1 && cells[0].trim() === '') continue;
        if (!header) {
          header = cells;
          onHeader(cells);
        } else rows.push({ cells, line: at });
      }
      if (rows.length) onRows(rows);
    },
  };
  Papa.parse<string[]>(input, config as Papa.ParseConfig<string[]>);
}

/** The whole text at once (tests, small files). */
export function parseAll(text: string): { header: string[]; rows: ParsedRow[] } {
  let header: string[] = [];
  const rows: ParsedRow[] = [];
  parseCsv(
    text,
    (h) => {
      header = h;
    },
    (chunk) => rows.push(...chunk),
  );
  return { header, rows };
}
