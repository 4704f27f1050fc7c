// Text inputs: structured-data attacks (XML entities, YAML aliases, deep nesting), big CSVs and
// single lines, deeply nested HTML, and output schemas. Deep structures are written as text:
// building them as objects and calling JSON.stringify would overflow this process's stack first.
import { prng, seededWords } from './words';

export const XXE = `<?xml version="1.0"?>
<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>
<x>&e;</x>
`;

/** Ten levels of ten references: 10^9 "lol"s from under 1 KB. */
export function billionLaughs(): string {
  const lines = ['<?xml version="1.0"?>', '<!DOCTYPE lolz [', ' <!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) lines.push(` <!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  lines.push(']>', '<lolz>&lol9;</lolz>', '');
  return lines.join('\n');
}

/** Nine levels of nine aliases: 9^9 (387 million) strings once the aliases are expanded. */
export function yamlAliasBomb(): string {
  const lines = [`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++) {
    const prev = names[i - 1];
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return `${lines.join('\n')}\n`;
}

/** `[[[…]]]`, `depth` levels. */
export const nestedJson = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

/** `<div>` nested `depth` levels around one line of text, as a page. */
export const nestedDivs = (depth: number): string =>
  `<html><body>${'<div>'.repeat(depth)}<p>Deep text</p>${'</div>'.repeat(depth)}</body></html>`;

/**
 * A CSV of `rows` orders after its header, about 22 bytes a row (1,000,000 rows: 22.7 MB, like
 * the 22.6 MB file that once froze the server).
 */
export function ordersCsv(rows: number): Buffer {
  const random = prng(1);
  const words = seededWords(2);
  const parts: string[] = ['id,item,qty\n'];
  for (let i = 1; i <= rows; i++) {
    parts.push(`${i},${words(1)[0]} ${words(1)[0]},${1 + Math.floor(random() * 99)}\n`);
  }
  return Buffer.from(parts.join(''));
}

/** A header of `columns` names and two rows. */
export function wideCsv(columns: number): Buffer {
  const header = Array.from({ length: columns }, (_, i) => `c${i}`).join(',');
  const row = Array.from({ length: columns }, (_, i) => String(i % 10)).join(',');
  return Buffer.from(`${header}\n${row}\n${row}\n`);
}

/** `mb` MB of words and no line break. */
export function singleLine(mb: number): Buffer {
  const words = seededWords(3);
  const parts: string[] = [];
  let size = 0;
  while (size < mb * 1024 * 1024) {
    const piece = `${words(64).join(' ')} `;
    parts.push(piece);
    size += piece.length;
  }
  return Buffer.from(parts.join(''));
}

/** An outputSchema nested `depth` objects deep, as the JSON text of a POST /api/extract body. */
export function nestedSchemaBody(depth: number): string {
  const open = '{"type":"object","properties":{"a":'.repeat(depth);
  const close = '}}'.repeat(depth);
  return `{"html":"<p>x</p>","query":"everything","outputSchema":${open}{"type":"string"}${close}}`;
}
