// Pages and schemas sent to the extractor (POST /api/extract) and to knowledge
// (POST /api/knowledge/page-content): nested elements and schemas, prototype-named properties.
import { ExtractionResult } from '@tandem/contracts';
import { jsonRequest } from '../http';
import {
  dataDifferences,
  exampleJson,
  PROTOTYPE_SCHEMA,
  protoFieldSchemaBody,
  prototypeSchemaBody,
} from '../inputs/prototype-keys';
import { nestedDivs, nestedSchemaBody } from '../inputs/text';
import { anyRefusal, processed, tooComplex } from '../verdict';
import { single, type HostileCase } from './types';

/** The data must be the scripted model's answer to that schema, as it answered it. */
function prototypeDataProblems(body: unknown): string[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  return dataDifferences(data, JSON.parse(exampleJson(JSON.parse(PROTOTYPE_SCHEMA))));
}

/** A `__proto__` field cannot be kept: the answer must say so, not drop it unsaid. */
function protoFieldProblems(body: unknown): string[] {
  const result = body as { schemaUsed?: unknown; warnings?: string[] } | undefined;
  const said = (result?.warnings ?? []).some((w) => w.includes('"__proto__"'));
  return [
    ...(said ? [] : ['no warning names the "__proto__" property']),
    ...(result?.schemaUsed === null ? [] : ['the schema was used as if it were kept']),
  ];
}

const extractHtml = (name: string, what: string, depth: number): HostileCase =>
  single({
    name,
    what,
    route: 'POST /api/extract',
    quick: true,
    expectation: tooComplex('HTML_MAX_DEPTH'),
    build: (stack) =>
      jsonRequest(stack.attacker.key, 'POST', '/api/extract', {
        html: nestedDivs(depth),
        query: 'the text',
      }),
  });

export const EXTRACT_CASES: HostileCase[] = [
  extractHtml('html-5000-divs', '5,000 nested <div> (HTML_MAX_DEPTH is 512)', 5_000),
  extractHtml('html-50000-divs', '50,000 nested <div>', 50_000),
  single({
    name: 'page-content-50000-divs',
    what: '50,000 nested <div> as a page the extension captured',
    route: 'POST /api/knowledge/page-content',
    quick: true,
    expectation: tooComplex('HTML_MAX_DEPTH'),
    build: (stack) =>
      jsonRequest(stack.attacker.key, 'POST', '/api/knowledge/page-content', {
        url: 'https://hostile.example/deep',
        html: nestedDivs(50_000),
        phase: 'initial',
      }),
  }),
  single({
    name: 'schema-6000-levels',
    what: 'an outputSchema of objects nested 6,000 levels',
    route: 'POST /api/extract',
    quick: true,
    expectation: anyRefusal('400 or 422 (SCHEMA_MAX_DEPTH)'),
    build: (stack) =>
      jsonRequest(stack.attacker.key, 'POST', '/api/extract', nestedSchemaBody(6_000)),
  }),
  single({
    name: 'schema-prototype-keys',
    what: 'a list schema with fields constructor (an object of toString, valueOf), toString, valueOf, hasOwnProperty, __proto__',
    route: 'POST /api/extract',
    quick: true,
    expectation: processed('200, the data intact', {
      budgetMs: 10_000,
      schema: ExtractionResult,
      check: prototypeDataProblems,
    }),
    build: (stack) =>
      jsonRequest(stack.attacker.key, 'POST', '/api/extract', prototypeSchemaBody()),
  }),
  single({
    name: 'schema-proto-field',
    what: 'a list schema with a field named __proto__',
    route: 'POST /api/extract',
    quick: true,
    expectation: processed('200, a warning naming "__proto__", no schema pretended', {
      budgetMs: 10_000,
      schema: ExtractionResult,
      check: protoFieldProblems,
    }),
    build: (stack) =>
      jsonRequest(stack.attacker.key, 'POST', '/api/extract', protoFieldSchemaBody()),
  }),
];
