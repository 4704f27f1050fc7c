// A scripted tool-calling "model" for the document agents: deterministic, and honest in the
// one way that matters for tests and bench/documents — it knows nothing but the conversation.
// It reads the document through get_document_text like a model does, parses what the text says
// ("Label: value" lines under upper-case section headings, "a | b | c" tables, Markdown tables
// from Word files), and calls the tools with what it found. Text that the readers (PDF layer,
// DOCX, OCR) lose or garble comes out lost or garbled in its fields.
//
// Corrections ("the total is 1,240.50, not 1,204.50", "remove the notes") are read the same way:
// it looks at the extraction with get_current_extraction, finds the field, and updates it.
import { formatFieldPath, type FieldPathSegment } from '@tandem/contracts';

/** The conversation as the model reads it (the LLM port's messages have this shape). */
export type ModelMessage =
  | { role: 'user'; text: string }
  | {
      role: 'assistant';
      text: string;
      toolCalls: { id?: string; name: string; args: Record<string, unknown> }[];
    }
  | { role: 'tool'; name: string; content: string; isError: boolean };

export interface ModelTurn {
  text?: string;
  toolCalls?: { name: string; args: Record<string, unknown> }[];
}

type Json = Record<string, unknown>;

const snake = (label: string): string =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** "1,204.50" → 1204.5; "0131 555 0199" and "INV-1" stay text. */
export function readValue(printed: string): unknown {
  const text = printed.trim();
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) || /^-?\d+(\.\d+)?$/.test(text)) {
    const number = Number(text.replace(/,/g, ''));
    // A leading zero is an identifier, not a number.
    if (Number.isFinite(number) && !/^-?0\d/.test(text)) return number;
  }
  return text;
}

/** The document text out of get_document_text answers: the fenced part, page markers dropped. */
export function documentTextOf(answers: readonly string[]): string {
  return answers
    .map((answer) => /<document_text[^>]*>\n([\s\S]*?)\n<\/document_text>/.exec(answer)?.[1] ?? '')
    .join('\n')
    .split('\n')
    .filter((line) => !/^--- Page \d+ ---$/.test(line.trim()))
    .join('\n');
}

const cleanLine = (line: string): string =>
  line
    .replace(/^#+\s*/, '')
    .replace(/\*\*/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|^])/g, '$1')
    .trim();

const isHeading = (line: string): boolean =>
  /^[A-Z][A-Z0-9 ]*[A-Z0-9]$/.test(line) && !line.includes(':');

function tableCells(line: string): string[] | null {
  if (!line.includes('|')) return null;
  const cells = line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.replace(/\\\|/g, '|').trim());
  return cells.length >= 2 ? cells : null;
}

/**
 * A date written day first (13/04/2024) as ISO: it could be read month first too, so the value
 * is one the model is unsure of.
 */
const DAY_FIRST = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/**
 * What a document says, as fields, its type from its title, and the paths of values it had to
 * interpret (their confidence is low).
 */
export function readDocumentText(text: string): {
  documentType: string;
  fields: Json;
  uncertain: string[];
} {
  const uncertain: string[] = [];
  const interpret = (printed: string, path: string): unknown => {
    const date = DAY_FIRST.exec(printed.trim());
    if (!date) return readValue(printed);
    uncertain.push(path);
    return `${date[3]}-${date[2]}-${date[1]}`;
  };
  const lines = text
    .split('\n')
    .map(cleanLine)
    .filter((line) => line !== '');
  let documentType = 'document';
  const fields: Json = {};
  let section: Json | null = null;
  let sectionKey: string | null = null;
  let header: string[] | null = null;
  let rows: Json[] = [];

  const flushTable = () => {
    if (header && sectionKey !== null && rows.length > 0) {
      if (section && Object.keys(section).length === 0) fields[sectionKey] = rows;
      else if (section) section.items = rows;
    }
    header = null;
    rows = [];
  };

  lines.forEach((line, index) => {
    if (index === 0 && isHeading(line)) {
      documentType = snake(line);
      return;
    }
    if (isHeading(line)) {
      flushTable();
      sectionKey = snake(line);
      section = {};
      fields[sectionKey] = section;
      return;
    }
    const cells = tableCells(line);
    if (cells) {
      if (cells.every((cell) => /^-{3,}$/.test(cell))) return;
      if (!header) {
        header = cells.map(snake);
        return;
      }
      const columns = header;
      const at = `${sectionKey ?? 'rows'}[${rows.length}]`;
      rows.push(
        Object.fromEntries(
          columns.map((column, i) => [column, interpret(cells[i] ?? '', `${at}.${column}`)]),
        ),
      );
      return;
    }
    const match = /^([^:]{1,60}):\s*(.+)$/.exec(line);
    if (!match?.[1] || !match[2]) return;
    const key = snake(match[1]);
    (section ?? fields)[key] = interpret(match[2], section ? `${sectionKey}.${key}` : key);
  });
  flushTable();
  // A heading with nothing under it is no field.
  const filled = Object.entries(fields).filter(
    ([, value]) =>
      !(value !== null && typeof value === 'object' && Object.keys(value).length === 0),
  );
  return { documentType, fields: Object.fromEntries(filled), uncertain };
}

const toolResults = (messages: readonly ModelMessage[], name: string) =>
  messages.filter(
    (m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool' && m.name === name,
  );

const lastToolResult = (messages: readonly ModelMessage[]) => {
  const last = messages[messages.length - 1];
  return last?.role === 'tool' ? last : null;
};

function flatten(value: unknown, path: FieldPathSegment[] = []): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => flatten(item, [...path, i]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, child]) => flatten(child, [...path, key]));
  }
  return path.length > 0 ? [[formatFieldPath(path), value]] : [];
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'string' && readValue(a) === b) || String(a) === String(b);

/** "the total is 1,240.50, not 1,204.50" → a field update; "remove the notes" → a removal. */
function correctionCalls(message: string, fields: Json): ModelTurn {
  const entries = flatten(fields);
  const remove = /^(?:please\s+)?(?:remove|delete|drop)\s+(?:the\s+)?(.+?)\.?$/i.exec(message);
  if (remove?.[1]) {
    const target = snake(remove[1]);
    const found =
      Object.keys(fields).find((key) => key === target) ??
      entries.find(([path]) => snake(path).endsWith(target))?.[0];
    return found
      ? { toolCalls: [{ name: 'remove_field', args: { path: found } }] }
      : { text: `I could not find "${remove[1]}" in the extraction.` };
  }
  const set = /^(?:the\s+)?(.+?)\s+(?:is|should be|=)\s+(.+?)(?:,?\s+not\s+(.+?))?\.?$/i.exec(
    message,
  );
  if (!set?.[1] || !set[2]) return { text: 'I did not understand the correction.' };
  const label = snake(set[1]);
  const wanted = readValue(set[2]);
  const old = set[3] !== undefined ? readValue(set[3]) : undefined;
  const candidates = entries.filter(([path]) => {
    const leaf = path.split('.').pop() ?? path;
    return snake(leaf) === label || snake(path).endsWith(label);
  });
  const chosen =
    (old !== undefined ? candidates.find(([, value]) => sameValue(value, old)) : undefined) ??
    candidates[0] ??
    (old !== undefined ? entries.find(([, value]) => sameValue(value, old)) : undefined);
  if (!chosen) return { text: `I could not find the ${set[1]} in the extraction.` };
  return {
    toolCalls: [{ name: 'update_field', args: { path: chosen[0], value: wanted, confidence: 1 } }],
  };
}

function summary(fields: Json, documentType: string): string {
  const count = flatten(fields).length;
  return `I extracted ${count} values from this ${documentType.replace(/_/g, ' ')}: ${Object.keys(fields).join(', ')}.`;
}

/**
 * A run taking over from one that stopped: what it saved is kept, so it looks before reading,
 * and completes from the saved fields. Null: go on as a fresh extraction (nothing was saved).
 */
function continuedTurn(
  messages: readonly ModelMessage[],
  last: ReturnType<typeof lastToolResult>,
): ModelTurn | null {
  if (!last) return { toolCalls: [{ name: 'get_current_extraction', args: {} }] };
  if (last.name === 'get_current_extraction' && !last.isError) {
    const state = JSON.parse(last.content) as { fields?: Json | null };
    const kept = flatten(state.fields ?? {}).length;
    if (kept === 0) return { toolCalls: [{ name: 'get_document_text', args: {} }] };
    return {
      text: `${kept} values were saved before; completing the extraction.`,
      toolCalls: [{ name: 'complete_extraction', args: {} }],
    };
  }
  const extracted = messages.some(
    (m) => m.role === 'assistant' && m.toolCalls.some((c) => c.name === 'extract_fields'),
  );
  if (last.name === 'complete_extraction' && !last.isError && !extracted) {
    return { text: 'I completed the extraction with the values saved before.' };
  }
  return null;
}

/** The model's next turn for a single-document extraction or correction. */
export function documentModelTurn(messages: readonly ModelMessage[]): ModelTurn {
  const request = messages.find((m) => m.role === 'user');
  const requestText = request?.role === 'user' ? request.text : '';
  const last = lastToolResult(messages);

  if (/writes about the extraction/.test(requestText)) {
    const lines = requestText.split('\n\n');
    const said = (lines[1] ?? '').trim();
    if (!last) return { toolCalls: [{ name: 'get_current_extraction', args: {} }] };
    if (last.name === 'get_current_extraction' && !last.isError) {
      const state = JSON.parse(last.content) as { fields: Json };
      return correctionCalls(said, state.fields);
    }
    if (last.isError) return { text: `I could not apply that: ${last.content}` };
    return { text: `Done. ${last.content}` };
  }

  if (/^Continue the extraction/.test(requestText)) {
    const turn = continuedTurn(messages, last);
    if (turn) return turn;
  }

  if (!last) return { toolCalls: [{ name: 'get_document_text', args: {} }] };
  if (last.name === 'get_document_text') {
    if (last.isError) return { text: last.content };
    const next = /call get_document_text with page=(\d+)/.exec(last.content);
    if (next?.[1])
      return { toolCalls: [{ name: 'get_document_text', args: { page: Number(next[1]) } }] };
    const text = documentTextOf(toolResults(messages, 'get_document_text').map((m) => m.content));
    const { documentType, fields, uncertain } = readDocumentText(text);
    if (Object.keys(fields).length === 0) return { text: 'I found no data in this document.' };
    const confidences = Object.fromEntries([
      ...Object.keys(fields).map((key) => [key, 0.95]),
      ...uncertain.map((path) => [path, 0.6]),
    ]);
    return {
      text: `This is an ${documentType.replace(/_/g, ' ')}; saving its fields.`,
      toolCalls: [
        { name: 'identify_document', args: { document_type: documentType } },
        { name: 'extract_fields', args: { fields, confidences } },
      ],
    };
  }
  if (last.name === 'extract_fields') {
    if (last.isError) return { text: `I could not save the fields: ${last.content}` };
    return { toolCalls: [{ name: 'complete_extraction', args: {} }] };
  }
  if (last.name === 'complete_extraction') {
    if (last.isError) return { text: last.content };
    const saved = [...messages]
      .reverse()
      .find(
        (m): m is Extract<ModelMessage, { role: 'assistant' }> =>
          m.role === 'assistant' && m.toolCalls.some((c) => c.name === 'extract_fields'),
      );
    const call = saved?.toolCalls.find((c) => c.name === 'extract_fields');
    const typeCall = saved?.toolCalls.find((c) => c.name === 'identify_document');
    return {
      text: summary(
        (call?.args.fields as Json | undefined) ?? {},
        String(typeCall?.args.document_type ?? 'document'),
      ),
    };
  }
  return { text: 'Done.' };
}

/** Column type of values seen across documents. */
function columnType(values: unknown[]): 'number' | 'date' | 'string' {
  if (values.every((v) => typeof v === 'number')) return 'number';
  if (values.every((v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v))) return 'date';
  return 'string';
}

/** The model's next turn for a stack: read every document, define columns, a row each. */
export function stackModelTurn(messages: readonly ModelMessage[]): ModelTurn {
  const last = lastToolResult(messages);
  if (!last) return { toolCalls: [{ name: 'list_documents', args: {} }] };
  const listing = toolResults(messages, 'list_documents')[0]?.content ?? '';
  const ids = [...listing.matchAll(/^(\S+): "/gm)].map((m) => m[1] as string);
  const texts = new Map<string, string[]>();
  let pending: string | null = null;
  for (const message of messages) {
    if (message.role === 'assistant') {
      const read = message.toolCalls.find((c) => c.name === 'get_document_text');
      if (read) pending = String(read.args.doc_id);
    } else if (message.role === 'tool' && message.name === 'get_document_text' && pending) {
      texts.set(pending, [...(texts.get(pending) ?? []), message.content]);
    }
  }
  if (last.name === 'list_documents' || last.name === 'get_document_text') {
    const more =
      last.name === 'get_document_text'
        ? /call get_document_text with page=(\d+)/.exec(last.content)
        : null;
    if (more?.[1] && pending) {
      return {
        toolCalls: [
          { name: 'get_document_text', args: { doc_id: pending, page: Number(more[1]) } },
        ],
      };
    }
    const unread = ids.find((id) => !texts.has(id));
    if (unread) return { toolCalls: [{ name: 'get_document_text', args: { doc_id: unread } }] };
    // Every document read: columns from the values all of them have, then one row each.
    const rows = ids.map((id) => {
      const { fields } = readDocumentText(documentTextOf(texts.get(id) ?? []));
      return Object.fromEntries(
        flatten(fields)
          .filter(([path]) => !path.includes('['))
          .map(([path, value]) => [path.replace(/\./g, '_'), value]),
      );
    });
    const names = Object.keys(rows[0] ?? {}).filter((name) => rows.every((row) => name in row));
    const columns = names.map((name) => ({ name, type: columnType(rows.map((row) => row[name])) }));
    return {
      toolCalls: [
        { name: 'define_columns', args: { columns } },
        ...ids.map((id, i) => {
          const cells = Object.fromEntries(names.map((name) => [name, rows[i]?.[name] ?? null]));
          const confidences = Object.fromEntries(names.map((name) => [name, 0.95]));
          return { name: 'extract_row', args: { doc_id: id, cells, confidences } };
        }),
      ],
    };
  }
  if (last.name === 'extract_row' || last.name === 'define_columns') {
    const failed = messages.filter((m) => m.role === 'tool' && m.isError);
    if (failed.length > 0 && last.isError)
      return { text: `I could not build the table: ${last.content}` };
    return { toolCalls: [{ name: 'complete_table', args: {} }] };
  }
  if (last.name === 'complete_table') {
    return {
      text: last.isError
        ? last.content
        : `The table has a row for each of the ${ids.length} documents.`,
    };
  }
  return { text: 'Done.' };
}
