/**
 * Rows to CSV text, as the template and the export write it: UTF-8 with a byte order mark
 * (spreadsheets then read accents right), commas, CRLF line ends, a field quoted when it holds a
 * comma, a semicolon, a quote, a line break or spaces at its ends (quotes doubled).
 */
const NEEDS_QUOTES = /[",;\r\n]|^\s|\s$/;

export const BOM = '\ufeff';

export function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly unknown[]): string => `${cells.map(csvField).join(',')}\r\n`;

export const csvText = (rows: readonly (readonly unknown[])[]): string => BOM + rows.map(csvLine).join('');
