// Generated model answers for the document agent's write tools (the team's rule: what reads
// outside input gets fast-check variation, fixed seed in CI). A model's tool calls are outside
// input: names it made up (`__proto__`, `a.b`, " total", "$where", digits), empty strings,
// nesting past the limit, confidences out of 0..1 or on paths the fields lack, paths to values
// that are not there, arguments that are no object, tools that do not exist. Each call runs as
// the tool loop runs it (runToolCall) against the real libSQL store. What users rely on:
// - every fault comes back to the model as a tool error, never as a failed run;
// - a refused call changes nothing stored (the fields, their confidences, the write history);
// - what is stored is always storable, with one confidence in 0..1 per value;
// - an accepted write stored exactly what the model sent;
// - with the user's schema, a completed extraction matches it.
// The expectations come from the generated calls, never from the code under test.
import { parseFieldPath } from '@tandem/contracts';
import type { LlmToolCall } from '@tandem/llm';
import { createLibsqlStore, type Store } from '@tandem/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsedToolCall } from '../testing/tool-call';
import { runToolCall } from '../tool-agent';
import { createDocumentTools } from './document-tools';
import { fieldProblems, flattenConfidences, shapeConfidence, valueAt } from './fields';
import type { AgentTool } from './tool';

const SEED = 35;
const RUNS = 120;
const TENANT = 'tenant-v';
const USER = 'user-v';

/** The user's schema some extractions carry: a number total is required. */
const SCHEMA = {
  type: 'object',
  properties: { total: { type: 'number' }, vendor: { type: 'string' } },
  required: ['total'],
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Names a model uses; names that are valid but mean something to JavaScript; names it makes up
 * that no store may take as they are.
 */
const name = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('total', 'vendor', 'items', 'price', 'name', 'date') },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/) },
  { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', ' total', 'a.b', 'items[0]', '$where', '42', 'x'.repeat(101)),
  },
);

/** A leaf: text (rarely blank), a number, a flag or null. */
const leaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('INV-0042', 'Acme Ltd', '2024-05-01', 'Ω ü 名') },
  {
    weight: 2,
    arbitrary: fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim() !== ''),
  },
  {
    weight: 2,
    arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 5000 }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom('', '   ') },
);

/** A JSON value a model may send, nested up to `depth` levels. */
const valueOf = (depth: number): fc.Arbitrary<Json> =>
  depth <= 0
    ? leaf
    : fc.oneof(
        { weight: 3, arbitrary: leaf },
        { weight: 1, arbitrary: fc.array(valueOf(depth - 1), { maxLength: 3 }) },
        {
          weight: 1,
          arbitrary: fc.dictionary(name, valueOf(depth - 1), { maxKeys: 3 }) as fc.Arbitrary<Json>,
        },
      );

/** Fields nested past FIELD_PATH_LIMITS.depth (12). */
const tooDeep = fc.integer({ min: 13, max: 16 }).map((levels) => ({
  total: Array.from({ length: levels }).reduce<Json>((inner) => ({ in: inner }), 1),
}));

const fieldsArb = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(name, valueOf(3), { minKeys: 1, maxKeys: 4 }) },
  { weight: 1, arbitrary: tooDeep },
  { weight: 1, arbitrary: fc.constant({}) },
);

/** How the call's confidences are given, worked out from its fields when it runs. */
const confidencesArb = fc.record({
  how: fc.constantFrom(
    ...['top', 'top', 'leaves', 'leaves', 'some', 'unknown path', 'out of range', 'not a number'],
  ),
  value: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** A path into the extraction: one it has (picked when the call runs), or one it cannot have. */
const pathArb = fc.oneof(
  { weight: 3, arbitrary: fc.nat().map((pick) => ({ pick })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'items[99]',
        'nothing.here',
        'a..b',
        '',
        '[0]',
        '__proto__',
        'total.__proto__',
        'items[0].__proto__',
        'constructor.prototype',
        'toString',
        `${'a.'.repeat(300)}a`,
      )
      .map((raw) => ({ raw })),
  },
);

type PathPick = { pick: number } | { raw: string };

/** One call the model makes. */
type CallSpec =
  | { tool: 'extract_fields'; fields: Json; confidences: { how: string; value: number } }
  | { tool: 'update_field'; path: PathPick; value: Json; confidence: number }
  | { tool: 'remove_field'; path: PathPick }
  | { tool: 'complete_extraction' }
  | { tool: 'get_current_extraction' }
  | { tool: 'identify_document'; type: string }
  | { tool: 'unknown' | 'bad args'; args: Json };

const callArb: fc.Arbitrary<CallSpec> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      tool: fc.constant('extract_fields' as const),
      fields: fieldsArb,
      confidences: confidencesArb,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      tool: fc.constant('update_field' as const),
      path: pathArb,
      value: valueOf(2),
      confidence: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(-0.5, 1.5)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ tool: fc.constant('remove_field' as const), path: pathArb }),
  },
  { weight: 1, arbitrary: fc.record({ tool: fc.constant('complete_extraction' as const) }) },
  { weight: 1, arbitrary: fc.record({ tool: fc.constant('get_current_extraction' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      tool: fc.constant('identify_document' as const),
      type: fc.constantFrom('invoice', 'lab_report', 'Invoice!', 'x', ''),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      tool: fc.constantFrom('unknown' as const, 'bad args' as const),
      args: fc.oneof(leaf, fc.array(leaf, { maxLength: 2 })),
    }),
  },
);

/** Every path of a value: containers and leaves, as the tools write them. */
function pathsOf(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value))
    return value.flatMap((item, i) => [`${prefix}[${i}]`, ...pathsOf(item, `${prefix}[${i}]`)]);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, child]) => {
      const here = prefix ? `${prefix}.${key}` : key;
      return [here, ...pathsOf(child, here)];
    });
  return [];
}

const pathFor = (pick: PathPick, fields: unknown): string => {
  if ('raw' in pick) return pick.raw;
  const paths = pathsOf(fields);
  return paths[pick.pick % Math.max(paths.length, 1)] ?? 'total';
};

/** The flat confidences the call sends for its fields. */
function confidencesFor(fields: Json, { how, value }: { how: string; value: number }): Json {
  const top = fields !== null && typeof fields === 'object' ? Object.keys(fields) : [];
  const leaves = Object.keys(flattenConfidences(shapeConfidence(fields, 1)));
  if (how === 'top') return Object.fromEntries(top.map((k) => [k, value]));
  if (how === 'leaves') return Object.fromEntries(leaves.map((k) => [k, value]));
  if (how === 'some') return Object.fromEntries(leaves.slice(0, 1).map((k) => [k, value]));
  if (how === 'unknown path') return { 'not.in.fields': value };
  if (how === 'out of range') return Object.fromEntries(top.map((k) => [k, value + 1.5]));
  return Object.fromEntries(top.map((k) => [k, 'high']));
}

function callOf(spec: CallSpec, fields: unknown): LlmToolCall {
  switch (spec.tool) {
    case 'extract_fields':
      return parsedToolCall('extract_fields', {
        fields: spec.fields,
        confidences: confidencesFor(spec.fields, spec.confidences),
      });
    case 'update_field':
      return parsedToolCall('update_field', {
        path: pathFor(spec.path, fields),
        value: spec.value,
        confidence: spec.confidence,
      });
    case 'remove_field':
      return parsedToolCall('remove_field', { path: pathFor(spec.path, fields) });
    case 'identify_document':
      return parsedToolCall('identify_document', { document_type: spec.type });
    case 'unknown':
      return parsedToolCall('delete_document', { id: 'another' });
    case 'bad args':
      // The provider's arguments were no JSON object: the loop gets `{}` and the reason.
      return { id: 'call', name: 'extract_fields', args: {}, argsError: 'not a JSON object' };
    default:
      return parsedToolCall(spec.tool, {});
  }
}

let store: Store;
let documentId: string;
beforeAll(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  const text = 'Invoice INV-0042 from Acme Ltd, total 1,240.50';
  const document = await store.documents.create(TENANT, {
    userId: USER,
    fileName: 'invoice.pdf',
    title: 'Invoice',
    mimeType: 'application/pdf',
    sizeBytes: text.length,
    pages: [{ number: 1, text }],
    status: 'ready',
  });
  documentId = document.id;
});
afterAll(() => store.close());

/** What a call may change: a refused call must leave all of it as it was. */
async function storedState(extractionId: string) {
  const x = await store.documentExtractions.get(TENANT, extractionId, { userId: USER });
  if (!x) throw new Error('the extraction is gone');
  const writes = await store.documentExtractions.listWrites(TENANT, extractionId);
  return {
    fields: x.fields,
    confidences: x.confidences,
    status: x.status,
    documentType: x.documentType,
    writes: writes.length,
  };
}

/** A value as it is once stored (JSON), for comparing with what was sent. */
const asStored = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

describe('the document tools on generated model answers', () => {
  it('refuse what they cannot store, change nothing then, and store exactly the rest', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArb, { minLength: 1, maxLength: 10 }),
        fc.boolean(),
        async (specs, withSchema) => {
          const extraction = await store.documentExtractions.create(TENANT, {
            userId: USER,
            documentId,
            ...(withSchema ? { schema: SCHEMA } : {}),
          });
          const tools = new Map<string, AgentTool>(
            createDocumentTools({
              store,
              tenantId: TENANT,
              userId: USER,
              documentId,
              extractionId: extraction.id,
            }).map((t) => [t.name, t]),
          );
          for (const spec of specs) {
            const before = await storedState(extraction.id);
            const call = callOf(spec, before.fields);
            // Never a thrown error: a fault is the model's to fix.
            const outcome = await runToolCall(call, tools, undefined);
            const after = await storedState(extraction.id);
            const label = `${call.name} ${JSON.stringify(call.args).slice(0, 300)}`;
            if (outcome.isError) {
              expect(after, `refused, yet changed: ${label}`).toEqual(before);
              continue;
            }
            // Always storable, one confidence in 0..1 per value.
            expect(fieldProblems(after.fields), label).toEqual([]);
            const confidences = flattenConfidences(after.confidences);
            expect(Object.keys(confidences).sort(), label).toEqual(
              Object.keys(flattenConfidences(shapeConfidence(after.fields, 1))).sort(),
            );
            for (const c of Object.values(confidences)) expect(c >= 0 && c <= 1, label).toBe(true);
            const wrote = ['extract_fields', 'update_field', 'remove_field'].includes(call.name);
            if (wrote) expect(after.writes, label).toBe(before.writes + 1);
            if (call.name === 'extract_fields')
              expect(after.fields, label).toEqual(asStored(call.args.fields));
            if (call.name === 'update_field') {
              const path = parseFieldPath(String(call.args.path));
              expect(path.ok, label).toBe(true);
              const at = path.ok ? valueAt(after.fields, path.segments) : { found: false };
              expect(at, label).toEqual({ found: true, value: asStored(call.args.value) });
            }
            if (withSchema && after.status === 'completed')
              expect(typeof after.fields.total, label).toBe('number');
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
