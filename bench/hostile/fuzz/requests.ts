// A fuzz request is a plan drawn by fast-check from the endpoint registry: which endpoint, its
// path parameters (the caller's own ids, tenant B's, random or malformed ones), its query, its
// body (JSON or multipart, valid or mutated) and its credentials. Plans are plain data, drawn
// from a fixed seed, so request N of a run is request N of every run with that seed.
import { endpoints, pathParamNames, type EndpointName } from '@tandem/contracts';
import fc from 'fast-check';
import { arbitraryFor } from './arbitrary';
import { bodyPlans, oddUnicode, type BodyPlan } from './bodies';
import { multipartPlans, type MultipartPlan } from './multipart';

/** Whose id goes in a path parameter. */
export type ParamMode = 'own' | 'victim' | 'random' | 'malformed';

export interface FuzzPlan {
  endpoint: EndpointName;
  /** What the request is, e.g. "valid", "body:deep(10000)", "path:malformed". */
  kind: string;
  params: Record<string, { mode: ParamMode; raw: string }>;
  /** Raw query string, '' or starting with '?'. */
  query: string;
  /** `owner`: a tenant with resources (own ids); `pool`: any fuzz tenant. */
  auth: 'owner' | 'pool' | 'none' | 'bogus';
  body?: BodyPlan;
  form?: MultipartPlan;
}

/** Path segments that are not ids (sent as is). */
const MALFORMED_SEGMENTS = [
  '%zz',
  '%FF',
  '%C0%AF',
  '..',
  '.',
  '%2e%2e',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '%',
  '%%41',
  '%E2%80%AE',
  '%F0%9F%92%A9',
  '%ED%A0%80',
  'a'.repeat(5_000),
  ';jsessionid=1',
  '%252e%252e',
  'constructor',
  '__proto__',
  'toString',
  '~',
  "'",
  '*',
];

/** Every UTF-8 byte percent-encoded (encodeURIComponent throws on a lone surrogate). */
const percentEncoded = (text: string): string =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9_-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

const paramValue: fc.Arbitrary<{ mode: ParamMode; raw: string }> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ mode: 'own' as const, raw: '' }) },
  { weight: 2, arbitrary: fc.constant({ mode: 'victim' as const, raw: '' }) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 30 }), oddUnicode)
      .map((s) => ({ mode: 'random' as const, raw: percentEncoded(s) })),
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(...MALFORMED_SEGMENTS)
      .map((raw) => ({ mode: 'malformed' as const, raw })),
  },
);

const junkQuery = fc
  .constantFrom(
    '?limit=%zz',
    '?format=%FF',
    '?a=1&a=2&a=3',
    '?limit[]=1',
    `?cursor=${'x'.repeat(10_000)}`,
    '?format=xml',
    '?limit=-1',
    '?limit=1e309',
    '?afterSeq=NaN',
    '?__proto__[x]=1',
    '?%C0%AF=1',
    '?=',
    '?&&&',
  )
  .map((query) => ({ query, junk: true }));

/** A query string; `junk` when it is not the endpoint's query (or the endpoint takes none). */
function queryOf(name: EndpointName): fc.Arbitrary<{ query: string; junk: boolean }> {
  const schema = endpoints[name] as { query?: Parameters<typeof arbitraryFor>[0] };
  if (!schema.query)
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant({ query: '', junk: false }) },
      { weight: 1, arbitrary: junkQuery },
    );
  const valid = arbitraryFor(schema.query).map((value) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(typeof value === 'object' && value !== null ? value : {}))
      search.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    const text = search.toString();
    return { query: text ? `?${text}` : '', junk: false };
  });
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: junkQuery });
}

const authOf: fc.Arbitrary<FuzzPlan['auth']> = fc.oneof(
  { weight: 40, arbitrary: fc.constant('pool' as const) },
  { weight: 1, arbitrary: fc.constant('none' as const) },
  { weight: 1, arbitrary: fc.constant('bogus' as const) },
);

const MULTIPART: readonly EndpointName[] = ['documentsUpload', 'knowledgeIngest'];

function contentOf(name: EndpointName): fc.Arbitrary<{ body?: BodyPlan; form?: MultipartPlan }> {
  const endpoint = endpoints[name] as {
    method: string;
    request?: Parameters<typeof arbitraryFor>[0];
    form?: Parameters<typeof arbitraryFor>[0];
  };
  if (MULTIPART.includes(name))
    return fc.oneof(
      {
        weight: 5,
        arbitrary: multipartPlans(
          endpoint.form ? arbitraryFor(endpoint.form) : fc.constant({}),
        ).map((form) => ({ form })),
      },
      { weight: 1, arbitrary: bodyPlans(fc.jsonValue({ maxDepth: 2 })).map((body) => ({ body })) },
    );
  if (endpoint.request) return bodyPlans(arbitraryFor(endpoint.request)).map((body) => ({ body }));
  if (endpoint.method === 'POST' || endpoint.method === 'DELETE')
    return fc.oneof(
      fc.constant({}),
      bodyPlans(fc.jsonValue({ maxDepth: 2 })).map((body) => ({ body })),
    );
  return fc.constant({});
}

function planOf(name: EndpointName): fc.Arbitrary<FuzzPlan> {
  const names = pathParamNames(endpoints[name].path);
  const params = fc
    .tuple(...names.map(() => paramValue))
    .map((values) =>
      Object.fromEntries(
        names.map((n, i) => [n, values[i] ?? { mode: 'random' as const, raw: 'x' }]),
      ),
    );
  return fc
    .tuple(params, queryOf(name), authOf, contentOf(name))
    .map(([p, { query, junk }, auth, content]) => {
      const modes = Object.values(p).map((v) => v.mode);
      const pathKind = modes.includes('malformed')
        ? 'path:malformed'
        : modes.includes('victim')
          ? 'path:victim'
          : '';
      const kind =
        [
          pathKind,
          junk ? 'query:junk' : '',
          content.body?.kind ?? content.form?.kind ?? '',
          auth === 'pool' || auth === 'owner' ? '' : `auth:${auth}`,
        ]
          .filter(Boolean)
          .join(' ') || 'valid';
      return {
        endpoint: name,
        kind,
        params: p,
        query,
        // Own ids are only own for the tenant that holds them.
        auth: modes.includes('own') && auth === 'pool' ? 'owner' : auth,
        ...content,
      };
    });
}

/** Every endpoint of the registry, equally often. */
export const ENDPOINT_NAMES = Object.keys(endpoints) as EndpointName[];

export const fuzzPlans: fc.Arbitrary<FuzzPlan> = fc.oneof(...ENDPOINT_NAMES.map(planOf));

/** The `count` plans of `seed`, in order. */
export const drawPlans = (seed: number, count: number): FuzzPlan[] =>
  fc.sample(fuzzPlans, { seed, numRuns: count });
