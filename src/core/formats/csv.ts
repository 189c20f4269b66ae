import { BatonError } from '../errors/index.ts';

/**
 * Reads CSV text (RFC 4180): comma-separated fields, double-quoted fields may hold commas, line breaks
 * and doubled quotes (""). Accepts LF or CRLF rows and a missing final newline; a BOM is dropped.
 */
export function parseCsv(text: string): string[][] {
  return parseCsvLines(text).map((r) => r.fields);
}

/** parseCsv's records with the line each starts on (1-based), so a bad record can be named by line. */
export function parseCsvLines(text: string): { line: number; fields: string[] }[] {
  const rows: { line: number; fields: string[] }[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push({ line: rowLine, fields: row });
    row = [];
    rowLine = line;
  };
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n') endRow();
    else if (c === '\r' && text[i + 1] === '\n') {
      line++;
      i++;
      endRow();
    } else field += c;
  }
  if (quoted)
    throw new BatonError({
      code: 'data/invalid',
      message: `CSV ends inside a quoted field opened on line ${rowLine} or later: the file is cut short or has an unmatched quote.`,
    });
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** CSV rows as objects keyed by the header row. A row with a different field count is an error naming it. */
export function parseCsvObjects(text: string, source = 'CSV'): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.map((fields, r) => {
    if (fields.length !== header.length) {
      throw new BatonError({
        code: 'data/invalid',
        message: `${source}: record ${r + 1} has ${fields.length} fields, the header has ${header.length}.`,
      });
    }
    return Object.fromEntries(header.map((name, i) => [name, fields[i]]));
  });
}

/** Rows as CSV text that parseCsv reads back: every field quoted, quotes doubled. */
export function formatCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.map((f) => `"${f.replace(/"/g, '""')}"`).join(',')).join('\n') + '\n';
}
