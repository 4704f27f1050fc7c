// Renders docs/api.md from the endpoint registry and the action grammar. Pure (no fs) so a
// unit test can compare it with the checked-in file; scripts/generate-api-doc.ts writes it.
import { z } from 'zod';
import { ACTION_GRAMMAR, ACTION_NAMES, actionSignature, SCROLL_DIRECTIONS } from './action-grammar';
import {
  type EndpointDefinition,
  COMMON_ERROR_CODES,
  endpoints,
  pathParamNames,
} from './endpoints';
import { ERROR_HTTP_STATUS, ErrorCode, ErrorResponse } from './errors';
import { ELEMENT_ID_PATTERN } from './semantic-tree';

export const API_DOC_COMMAND = 'npm run docs:api';

/** JSON Schema (draft 2020-12) of a wire schema, as the doc shows it. */
export function toDocJsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
): Record<string, unknown> {
  const json: Record<string, unknown> = z.toJSONSchema(schema, {
    io,
    // A `format` already says it; zod's generated regexes for uuid/date-time are noise to a reader.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format !== undefined && jsonSchema.pattern !== undefined) {
        delete jsonSchema.pattern;
      }
    },
  });
  delete json.$schema;
  return json;
}

const isScalar = (value: unknown): boolean => value === null || typeof value !== 'object';

// JSON.stringify(…, 2) puts every enum member and every `{ "type": "string" }` on lines of
// their own, which triples the length of the page; scalar arrays and small leaf objects stay inline.
function prettyJson(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every(isScalar)) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    return `[\n${value.map((v) => inner + prettyJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    if (entries.every(([, v]) => isScalar(v))) {
      const line = `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')} }`;
      if (indent.length + line.length <= 100) return line;
    }
    const body = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${prettyJson(v, inner)}`);
    return `{\n${body.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

const jsonBlock = (value: unknown): string => ['```json', prettyJson(value), '```'].join('\n');

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const table = (header: string[], rows: string[][]): string =>
  [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');

const code = (text: string): string => `\`${text}\``;

function renderEndpoint(name: string, endpoint: EndpointDefinition): string {
  const parts = [
    `### ${name} — ${code(`${endpoint.method} ${endpoint.path}`)}`,
    '',
    endpoint.summary,
    '',
  ];
  parts.push(`- Auth: ${code(endpoint.auth)}`);
  for (const note of endpoint.notes ?? []) parts.push(`- ${note}`);
  parts.push('');

  if (endpoint.params) {
    parts.push(
      `#### Path parameters (${pathParamNames(endpoint.path).map(code).join(', ')})`,
      '',
      jsonBlock(toDocJsonSchema(endpoint.params, 'input')),
      '',
    );
  }
  if (endpoint.query) {
    parts.push('#### Query', '', jsonBlock(toDocJsonSchema(endpoint.query, 'input')), '');
  }
  if (endpoint.request) {
    parts.push('#### Request body', '', jsonBlock(toDocJsonSchema(endpoint.request, 'input')), '');
  }
  // The statuses the route answers with (201 Created, 202 Accepted…), not a 200 it never sends.
  const statuses = (endpoint.successStatuses ?? [200]).join(' or ');
  parts.push(
    endpoint.stream === 'sse'
      ? `#### Response (${statuses}, \`text/event-stream\`): the JSON \`data\` of each event`
      : `#### Response (${statuses})`,
    '',
    jsonBlock(toDocJsonSchema(endpoint.response, 'output')),
    '',
  );

  const codes = [...endpoint.errors, ...COMMON_ERROR_CODES];
  parts.push(
    '#### Errors',
    '',
    codes.map((c) => `${code(c)} (${ERROR_HTTP_STATUS[c]})`).join(', '),
    '',
  );
  return parts.join('\n');
}

function renderGrammar(): string {
  const rows = ACTION_NAMES.map((name) => {
    const spec = ACTION_GRAMMAR[name];
    return [code(name), code(actionSignature(name)), spec.summary, code(spec.example)];
  });
  return [
    '## Action grammar',
    '',
    'The `action` string of a response (and each `actions[].action` of a chain) is one call of this grammar; `actionDetails` is the same action parsed (`{ "name", "args" }`).',
    '',
    table(['Action', 'Syntax', 'Meaning', 'Example'], rows),
    '',
    `- Element ids are the ${code('i')} values of the semantic tree and match ${code(String(ELEMENT_ID_PATTERN))}; ${code('click(14)')}, ${code('click("14")')} and ${code("click('14')")} are the same action.`,
    `- Text arguments are quoted with ${code('"')} or ${code("'")}; escapes: ${code('\\" \\\' \\\\ \\/ \\n \\t \\r \\b \\f \\uXXXX')}. The server always writes double quotes with JSON escaping.`,
    `- ${code('scroll')} takes a direction (${SCROLL_DIRECTIONS.map(code).join(', ')}) or an element id.`,
    '- Action names match case-insensitively; whitespace between tokens is allowed; anything after the closing `)` is an error.',
    '- `finish` and `fail` end the task and are never part of a chain; chains also exclude `navigate`, `goBack` and `googleSearch`.',
    '',
  ].join('\n');
}

export function renderApiDoc(): string {
  const named = Object.entries(endpoints) as [string, EndpointDefinition][];
  const errorRows = ErrorCode.options.map((c) => [code(c), String(ERROR_HTTP_STATUS[c])]);
  return [
    '# Tandem HTTP API',
    '',
    `> Generated from \`packages/contracts\` (endpoint registry \`src/endpoints.ts\`, action grammar \`src/action-grammar.ts\`) by \`${API_DOC_COMMAND}\`. Do not edit by hand.`,
    '',
    '## Conventions',
    '',
    '- JSON in, JSON out. Schemas below are JSON Schema (draft 2020-12) generated from the zod contracts; request schemas describe what a client may send, response schemas what the server returns.',
    '- `apiKey` endpoints need `Authorization: Bearer <api key>`; `admin` endpoints need an admin key.',
    '- Unknown request fields are ignored. Field-level validation messages come back in `error.fields`.',
    '- Every error answer is the envelope below (never a stack trace), with the status of its code.',
    '',
    '### Error envelope',
    '',
    jsonBlock(toDocJsonSchema(ErrorResponse, 'output')),
    '',
    table(['Code', 'HTTP status'], errorRows),
    '',
    '## Endpoints',
    '',
    table(
      ['Name', 'Method', 'Path', 'Auth', 'Summary'],
      named.map(([name, e]) => [code(name), e.method, code(e.path), code(e.auth), e.summary]),
    ),
    '',
    ...named.map(([name, endpoint]) => renderEndpoint(name, endpoint)),
    renderGrammar(),
  ].join('\n');
}
