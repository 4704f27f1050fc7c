// The engine of the scripted document model: deterministic, and honest in the one way that
// matters for tests and bench/documents — it knows nothing but the conversation. It reads the
// document as the tools return it ("Label: value" lines under upper-case headings, "a | b" and
// Markdown tables), so text the readers (PDF, DOCX, OCR) garble comes out garbled in its fields.
// What it does on each turn is data: document-scenarios.ts.
import { formatFieldPath, type FieldPathSegment } from '@tandem/contracts';
import { DOCUMENT_TEXT_FENCE, NEXT_PAGE_CALL } from '../tools';

export type Json = Record<string, unknown>;
/** The conversation as the model reads it (the LLM port's messages have this shape). */
export type ModelMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: { id?: string; name: string; args: Json }[] }
  | ToolAnswer;
export type ToolAnswer = { role: 'tool'; name: string; content: string; isError: boolean };
export type ModelTurn = { text?: string; toolCalls?: { name: string; args: Json }[] };

/** A turn's view: the run's request, and the tool answer it replies to (null: the first turn). */
export interface Conversation {
  messages: readonly ModelMessage[];
  request: string;
  last: ToolAnswer | null;
  answer: string;
  failed: boolean;
  /** The page the last get_document_text answer says to read next. */
  nextPage: number | null;
}
type Handler = (c: Conversation) => ModelTurn | null;
/** Handlers by the tool answered (`start`, else `other`); null passes to the next scenario. */
export type Scenario = { when?: (request: string) => boolean; on: Record<string, Handler> };

export const say = (text: string): ModelTurn => ({ text });
export const call = (name: string, args: Json = {}): ModelTurn => ({ toolCalls: [{ name, args }] });
export const answersOf = (messages: readonly ModelMessage[], name: string) =>
  messages.filter((m): m is ToolAnswer => m.role === 'tool' && m.name === name);

const NEXT_PAGE = new RegExp(`${NEXT_PAGE_CALL}(\\d+)`);
const FENCED = new RegExp(
  `<${DOCUMENT_TEXT_FENCE}[^>]*>\\n([\\s\\S]*?)\\n</${DOCUMENT_TEXT_FENCE}>`,
);

export const scripted =
  (...scenarios: Scenario[]) =>
  (messages: readonly ModelMessage[]): ModelTurn => {
    const request = messages.find((m) => m.role === 'user');
    const tail = messages[messages.length - 1];
    const last = tail?.role === 'tool' ? tail : null;
    const page = last?.name === 'get_document_text' ? NEXT_PAGE.exec(last.content)?.[1] : null;
    const [answer, failed] = [last?.content ?? '', last?.isError ?? false];
    const text = request?.role === 'user' ? request.text : '';
    const c = { messages, request: text, last, answer, failed, nextPage: page ? +page : null };
    for (const { on } of scenarios.filter((s) => s.when?.(text) ?? true)) {
      const name = last?.name ?? 'start';
      const turn = on[Object.hasOwn(on, name) ? name : 'other']?.(c);
      if (turn) return turn;
    }
    return say('Done.');
  };

export const snake = (label: string): string =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** "1,204.50" → 1204.5; "0131 555 0199" and "INV-1" stay text (a leading zero is an id). */
export function readValue(printed: string): unknown {
  const text = printed.trim();
  const numeric = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) || /^-?\d+(\.\d+)?$/.test(text);
  const number = Number(text.replace(/,/g, ''));
  return numeric && Number.isFinite(number) && !/^-?0\d/.test(text) ? number : text;
}

/** Every leaf value by its field path ("items[0].price"). */
export function flatten(value: unknown, path: FieldPathSegment[] = []): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => flatten(item, [...path, i]));
  if (value === null || typeof value !== 'object') {
    return path.length > 0 ? [[formatFieldPath(path), value]] : [];
  }
  return Object.entries(value).flatMap(([key, child]) => flatten(child, [...path, key]));
}

/** Markdown escapes and emphasis out, so Word files read like PDF text. */
const clean = (line: string): string =>
  line
    .replace(/^#+\s*/, '')
    .replace(/\*\*/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|^])/g, '$1')
    .trim();
const cellsOf = (line: string): string[] =>
  line.includes('|')
    ? line
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.replace(/\\\|/g, '|').trim())
    : [];

/**
 * A document's fields from get_document_text answers (the fenced text, page markers dropped),
 * its type from its title, and the paths of values it interpreted: a day-first date (13/04/2024)
 * reads month first too, so the model doubts it.
 */
export function readDocument(answers: readonly ToolAnswer[]) {
  const [fields, uncertain]: [Json, string[]] = [{}, []];
  const interpret = (printed: string, path: string): unknown => {
    const date = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(printed.trim());
    if (date) uncertain.push(path);
    return date ? `${date[3]}-${date[2]}-${date[1]}` : readValue(printed);
  };
  let [documentType, section, key]: [string, Json | null, string] = ['document', null, ''];
  let [header, rows]: [string[], Json[]] = [[], []];
  const flushTable = () => {
    // A section that is only a table is the table; one with fields too has it as its items.
    if (section && header.length > 0 && rows.length > 0) {
      if (Object.keys(section).length === 0) fields[key] = rows;
      else section.items = rows;
    }
    [header, rows] = [[], []];
  };
  const lines = answers
    .map((a) => FENCED.exec(a.content)?.[1] ?? '')
    .join('\n')
    .split('\n')
    .filter((line) => !/^--- Page \d+ ---$/.test(line.trim()))
    .map(clean)
    .filter((line) => line !== '');
  for (const [index, line] of lines.entries()) {
    const cells = cellsOf(line);
    const [, label, value] = /^([^:]{1,60}):\s*(.+)$/.exec(line) ?? [];
    const heading = /^[A-Z][A-Z0-9 ]*[A-Z0-9]$/.test(line);
    if (heading && index === 0) documentType = snake(line);
    else if (heading) {
      flushTable();
      [key, section] = [snake(line), {}];
      fields[key] = section;
    } else if (cells.length >= 2 && cells.every((cell) => /^-{3,}$/.test(cell))) continue;
    else if (cells.length >= 2 && header.length === 0) header = cells.map(snake);
    else if (cells.length >= 2) {
      const at = `${section ? key : 'rows'}[${rows.length}]`;
      rows.push(
        Object.fromEntries(header.map((h, i) => [h, interpret(cells[i] ?? '', `${at}.${h}`)])),
      );
    } else if (label && value) {
      (section ?? fields)[snake(label)] = interpret(
        value,
        `${section ? `${key}.` : ''}${snake(label)}`,
      );
    }
  }
  flushTable();
  const empty = (v: unknown) => v !== null && typeof v === 'object' && Object.keys(v).length === 0;
  const filled = Object.entries(fields).filter(([, v]) => !empty(v)); // a heading with nothing under it
  return { documentType, fields: Object.fromEntries(filled), uncertain };
}
