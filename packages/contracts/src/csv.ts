// CSV (RFC 4180) for people who open what we export in a spreadsheet: collected items, an
// extraction's rows, a stack's table. Here, beside the other wire encodings (sse.ts), because
// the server's routes and the agents both write it. Page and document content is untrusted, so
// cells that a spreadsheet would run as a formula are defused (OWASP "CSV injection"), and
// nested values are written as JSON rather than "[object Object]".

// =, +, -, @ start a formula in Excel, LibreOffice and Google Sheets; a tab or CR before them
// hides it. Numbers and phone numbers ("-12.5", "+1 (555) 010-2000") are data, not formulas.
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER_LIKE = /^[+-]?\d[\d\s().,-]*$/;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    return FORMULA_START.test(value) && !NUMBER_LIKE.test(value) ? `'${value}` : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One RFC 4180 field: quoted when it holds a quote, comma, line break or edge space. */
export function csvField(value: unknown): string {
  const text = cellText(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: the header line, then one line per row, each CRLF-terminated. */
export function csvTable(header: readonly unknown[], rows: Iterable<readonly unknown[]>): string {
  const lines = [header.map(csvField).join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
