// Ids in paths that are not ids: malformed percent-encoding, dot segments, overlong. Sent as is
// (curl --path-as-is); the answer must be our JSON envelope, 400 or 404, never Next's own
// plain-text 500, HTML 404 or redirect.
import { refused } from '../verdict';
import { single, type HostileCase } from './types';

const PATHS: [name: string, path: string][] = [
  ['path-%zz', '/api/stacks/%zz'],
  ['path-%FF', '/api/stacks/%FF'],
  ['path-%C0%AF', '/api/stacks/%C0%AF'],
  ['path-dotdot', '/api/stacks/..'],
  ['path-dotdot-extraction', '/api/extractions/..'],
  ['path-%2e%2e', '/api/extractions/%2e%2e'],
  ['path-%zz-nested', '/api/tasks/%zz/collected'],
  ['path-%C0%AF-events', '/api/knowledge/jobs/%C0%AF/events'],
  ['path-traversal', '/api/admin/tasks/..%2f..%2fetc%2fpasswd'],
  ['path-10k-id', `/api/stacks/${'a'.repeat(10_000)}`],
];

export const PATH_CASES: HostileCase[] = PATHS.map(([name, path]) =>
  single({
    name,
    what: `GET ${path.length > 60 ? `${path.slice(0, 40)}… (${path.length} chars)` : path}`,
    route: `GET ${path.length > 40 ? `${path.slice(0, 24)}…` : path}`,
    quick: true,
    expectation: refused('400/404 envelope', { statuses: [400, 404] }),
    build: (stack) => ({
      method: 'GET',
      path,
      headers: { authorization: `Bearer ${stack.attacker.key}` },
    }),
  }),
);
