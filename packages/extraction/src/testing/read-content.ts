// What the scripted extraction model reads: only the prompt's text. It finds the fenced page
// content and the schema the prompt states, and answers from the Markdown's tables and
// headed blocks (cards). Wrong chunking therefore shows up as wrong data: a card cut from its
// price, or a table chunk without its header, yields fewer items.
import { isJsonObject as isObject, type JsonObject as Json } from '../json';

export function contentOf(prompt: string): string {
  const match = /<page_content untrusted="true">\n([\s\S]*)\n<\/page_content>/.exec(prompt);
  return match?.[1] ?? '';
}

export function schemaOf(prompt: string): Json | null {
  const match = /Schema of "data":\n(.*)\n/.exec(prompt);
  if (!match?.[1]) return null;
  try {
    const parsed: unknown = JSON.parse(match[1]);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

interface FieldSpec {
  name: string;
  type: string;
}

export function fieldsOf(schema: Json): FieldSpec[] {
  const target = schema.type === 'array' && isObject(schema.items) ? schema.items : schema;
  if (!isObject(target.properties)) return [];
  return Object.entries(target.properties).map(([name, spec]) => ({
    name,
    type: isObject(spec) && typeof spec.type === 'string' ? spec.type : 'string',
  }));
}

export const requiredOf = (schema: Json): string[] => {
  const target = schema.type === 'array' && isObject(schema.items) ? schema.items : schema;
  return Array.isArray(target.required) ? target.required.map(String) : [];
};

const SYNONYMS: Record<string, string[]> = {
  name: ['name', 'product', 'title', 'item'],
  price: ['price', 'cost', 'amount'],
  rating: ['rating', 'stars', 'score'],
  sku: ['sku', 'id', 'code'],
  stock: ['stock', 'availability'],
  currency: ['currency'],
};

const norm = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

function columnFor(field: string, headers: string[]): number {
  const wanted = SYNONYMS[field] ?? [norm(field)];
  const exact = headers.findIndex((h) => wanted.includes(norm(h)));
  if (exact >= 0) return exact;
  return headers.findIndex((h) => wanted.some((w) => norm(h).includes(w)));
}

export function convert(text: string, type: string): unknown {
  const trimmed = text.trim();
  if (type === 'number' || type === 'integer') {
    const match = /-?\d[\d,]*(?:\.\d+)?/.exec(trimmed);
    if (!match) return undefined;
    const value = Number(match[0].replace(/,/g, ''));
    return type === 'integer' ? Math.trunc(value) : value;
  }
  if (type === 'boolean') return /^(yes|true|in stock)$/i.test(trimmed);
  return trimmed === '' ? undefined : trimmed;
}

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));

/** Items of every GFM table: a header row, a delimiter row, then data rows. */
function tableItems(lines: string[], fields: FieldSpec[]): Json[] {
  const items: Json[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!/^\s*\|/.test(lines[i] ?? '') || !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1] ?? '')) continue;
    const headers = cells(lines[i] as string);
    const columns = fields.map((f) => columnFor(f.name, headers));
    let row = i + 2;
    for (; row < lines.length && /^\s*\|/.test(lines[row] ?? ''); row++) {
      const values = cells(lines[row] as string);
      const item: Json = {};
      fields.forEach((field, index) => {
        const column = columns[index] ?? -1;
        const value = column >= 0 ? convert(values[column] ?? '', field.type) : undefined;
        if (value !== undefined) item[field.name] = value;
      });
      items.push(item);
    }
    i = row - 1;
  }
  return items;
}

const PATTERNS: Record<string, RegExp> = {
  price: /[$€£]\s?\d[\d,]*(?:\.\d+)?/,
  rating: /(\d(?:\.\d)?)\s*out of 5/i,
  stock: /\b(In stock|Low stock|Out of stock)\b/i,
  sku: /\b[A-Z]-\d{3,5}\b/,
};

/** Items of headed blocks: the heading is the name, the lines under it hold the rest. */
function cardItems(lines: string[], fields: FieldSpec[]): Json[] {
  const items: Json[] = [];
  let current: { name: string; body: string[] } | null = null;
  const flush = () => {
    if (!current) return;
    const body = current.body.join(' ');
    const item: Json = {};
    for (const field of fields) {
      const raw = SYNONYMS.name?.includes(norm(field.name))
        ? current.name
        : (PATTERNS[field.name]?.exec(body)?.[1] ?? PATTERNS[field.name]?.exec(body)?.[0]);
      const value = raw === undefined ? undefined : convert(raw, field.type);
      if (value !== undefined) item[field.name] = value;
    }
    items.push(item);
  };
  for (const line of lines) {
    // Cards are often list items: "-   ### Name".
    const heading = /^\s*(?:[-*+]\s+|\d+\.\s+)?#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      current = { name: (heading[1] ?? '').trim(), body: [] };
    } else if (current && !/^\s*\|/.test(line)) current.body.push(line);
  }
  flush();
  return items;
}

/** The answer a faithful model gives for this prompt: `{ data }` with a schema, else `{ text }`. */
export function answerFromPrompt(prompt: string): { data: unknown } | { text: string } {
  const content = contentOf(prompt);
  const schema = schemaOf(prompt);
  if (!schema) return { text: content.split(/\n\n/).slice(0, 3).join('\n\n') };
  const fields = fieldsOf(schema);
  const required = requiredOf(schema);
  const lines = content.split('\n');
  const complete = (item: Json) =>
    Object.keys(item).length > 0 && required.every((name) => item[name] !== undefined);
  const items = [...tableItems(lines, fields), ...cardItems(lines, fields)].filter(complete);
  if (schema.type === 'array') return { data: items };
  return { data: items[0] ?? {} };
}
