// What the scripted document model does, as data for the engine in document-model.ts: each
// scenario answers the tool result its turn replies to. A correction is read from the user's
// words ("the total is 1,240.50, not 1,204.50", "remove the notes"); a run taking over a stopped
// one looks before it reads; a stack reads every document, then writes a row each.
import { CONTINUE_OPENING, CORRECTION_OPENING } from '../tools';
import type {
  Conversation as C,
  Json,
  ModelMessage,
  ModelTurn,
  ToolAnswer,
} from './document-model';
import {
  answersOf,
  call,
  flatten,
  readDocument,
  readValue,
  say,
  scripted,
  snake,
} from './document-model';

const same = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'string' && readValue(a) === b) || String(a) === String(b);
/** The calls of the latest assistant turn that called `name`. */
const latestWith = (messages: readonly ModelMessage[], name: string) =>
  messages.findLast((m) => m.role === 'assistant' && m.toolCalls.some((t) => t.name === name));
const argsOf = (m: ModelMessage | undefined, name: string): Json =>
  (m?.role === 'assistant' ? m.toolCalls.find((t) => t.name === name)?.args : undefined) ?? {};

function correct(c: C): ModelTurn {
  const said = (c.request.split('\n\n')[1] ?? '').trim(); // the correction turn puts it second
  const { fields } = JSON.parse(c.answer) as { fields: Json };
  const entries = flatten(fields);
  const drop = /^(?:please\s+)?(?:remove|delete|drop)\s+(?:the\s+)?(.+?)\.?$/i.exec(said)?.[1];
  if (drop) {
    const found =
      Object.keys(fields).find((key) => key === snake(drop)) ??
      entries.find(([path]) => snake(path).endsWith(snake(drop)))?.[0];
    return found
      ? call('remove_field', { path: found })
      : say(`I could not find "${drop}" in the extraction.`);
  }
  const [, label, to, from] =
    /^(?:the\s+)?(.+?)\s+(?:is|should be|=)\s+(.+?)(?:,?\s+not\s+(.+?))?\.?$/i.exec(said) ?? [];
  if (!label || !to) return say('I did not understand the correction.');
  const named = entries.filter(
    ([p]) => snake(p.split('.').pop() ?? p) === snake(label) || snake(p).endsWith(snake(label)),
  );
  const old = (e: [string, unknown]) => from !== undefined && same(e[1], readValue(from));
  const chosen = named.find(old) ?? named[0] ?? entries.find(old);
  if (!chosen) return say(`I could not find the ${label} in the extraction.`);
  return call('update_field', { path: chosen[0], value: readValue(to), confidence: 1 });
}

function extract(c: C): ModelTurn {
  if (c.failed) return say(c.answer);
  if (c.nextPage !== null) return call('get_document_text', { page: c.nextPage });
  const { documentType, fields, uncertain } = readDocument(
    answersOf(c.messages, 'get_document_text'),
  );
  if (Object.keys(fields).length === 0) return say('I found no data in this document.');
  // An interpreted value (a day-first date) is one the model doubts.
  const sure = Object.keys(fields).map((key) => [key, 0.95]);
  const confidences = Object.fromEntries([...sure, ...uncertain.map((path) => [path, 0.6])]);
  return {
    text: `This is an ${documentType.replace(/_/g, ' ')}; saving its fields.`,
    toolCalls: [
      { name: 'identify_document', args: { document_type: documentType } },
      { name: 'extract_fields', args: { fields, confidences } },
    ],
  };
}

function summary(c: C): ModelTurn {
  const turn = latestWith(c.messages, 'extract_fields');
  const fields = (argsOf(turn, 'extract_fields').fields ?? {}) as Json;
  const type = String(argsOf(turn, 'identify_document').document_type ?? 'document');
  const what = `${flatten(fields).length} values from this ${type.replace(/_/g, ' ')}`;
  return say(`I extracted ${what}: ${Object.keys(fields).join(', ')}.`);
}

const applied = (c: C) =>
  say(c.failed ? `I could not apply that: ${c.answer}` : `Done. ${c.answer}`);
const correction = {
  when: (request: string) => request.includes(CORRECTION_OPENING),
  on: {
    start: () => call('get_current_extraction'),
    get_current_extraction: (c: C) => (c.failed ? applied(c) : correct(c)),
    other: applied,
  },
};
const takeOver = {
  when: (request: string) => request.startsWith(CONTINUE_OPENING),
  on: {
    start: () => call('get_current_extraction'),
    get_current_extraction(c: C) {
      if (c.failed) return null;
      const kept = flatten((JSON.parse(c.answer) as { fields?: Json | null }).fields ?? {}).length;
      if (kept === 0) return call('get_document_text');
      return {
        ...say(`${kept} values were saved before; completing the extraction.`),
        ...call('complete_extraction'),
      };
    },
    complete_extraction: (c: C) =>
      c.failed || latestWith(c.messages, 'extract_fields')
        ? null
        : say('I completed the extraction with the values saved before.'),
  },
};

/** The model's next turn for a single-document extraction, correction or take-over. */
export const documentModelTurn = scripted(correction, takeOver, {
  on: {
    start: () => call('get_document_text'),
    get_document_text: extract,
    extract_fields: (c) =>
      c.failed ? say(`I could not save the fields: ${c.answer}`) : call('complete_extraction'),
    complete_extraction: (c) => (c.failed ? say(c.answer) : summary(c)),
  },
});

const idsOf = (c: C) =>
  [...(answersOf(c.messages, 'list_documents')[0]?.content ?? '').matchAll(/^(\S+): "/gm)].map(
    (m) => m[1] ?? '',
  );
const typeOf = (values: unknown[]) =>
  values.every((v) => typeof v === 'number')
    ? 'number'
    : values.every((v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v))
      ? 'date'
      : 'string';

/** Reads every document (page by page), then defines the shared columns and saves a row each. */
function tabulate(c: C): ModelTurn {
  const texts = new Map<string, ToolAnswer[]>();
  let reading: string | null = null;
  for (const m of c.messages) {
    const read =
      m.role === 'assistant' ? m.toolCalls.find((t) => t.name === 'get_document_text') : undefined;
    if (read) reading = String(read.args.doc_id);
    if (m.role === 'tool' && m.name === 'get_document_text' && reading)
      texts.set(reading, [...(texts.get(reading) ?? []), m]);
  }
  if (c.nextPage !== null && reading)
    return call('get_document_text', { doc_id: reading, page: c.nextPage });
  const ids = idsOf(c);
  const unread = ids.find((id) => !texts.has(id));
  if (unread) return call('get_document_text', { doc_id: unread });
  // Columns: the top-level values every document has (a list does not fit a cell).
  const rows = ids.map((id) =>
    Object.fromEntries(
      flatten(readDocument(texts.get(id) ?? []).fields)
        .filter(([p]) => !p.includes('['))
        .map(([p, v]) => [p.replace(/\./g, '_'), v]),
    ),
  );
  const names = Object.keys(rows[0] ?? {}).filter((name) => rows.every((row) => name in row));
  const columns = names.map((name) => ({ name, type: typeOf(rows.map((row) => row[name])) }));
  const each = (value: (name: string) => unknown) =>
    Object.fromEntries(names.map((n) => [n, value(n)]));
  const row = (id: string, i: number) => ({
    name: 'extract_row',
    args: { doc_id: id, cells: each((n) => rows[i]?.[n] ?? null), confidences: each(() => 0.95) },
  });
  return { toolCalls: [{ name: 'define_columns', args: { columns } }, ...ids.map(row)] };
}

const written = (c: C) =>
  c.failed ? say(`I could not build the table: ${c.answer}`) : call('complete_table');

/** The model's next turn for a stack. */
export const stackModelTurn = scripted({
  on: {
    start: () => call('list_documents'),
    list_documents: tabulate,
    get_document_text: tabulate,
    define_columns: written,
    extract_row: written,
    complete_table: (c) =>
      say(
        c.failed ? c.answer : `The table has a row for each of the ${idsOf(c).length} documents.`,
      ),
  },
});
