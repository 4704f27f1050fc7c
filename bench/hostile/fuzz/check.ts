// What a fuzz answer must be: never a 5xx, never without an answer, always the JSON envelope
// (verdict.ts); a 2xx with one of the endpoint's success statuses and a body that parses
// against its response schema; credentials missing or wrong → 401 (or 429 once an address
// failed too often); another tenant's id → 404 (a refusal of the request itself, 400/413/422/429,
// is no leak either), and no answer to one tenant carries another's id.
import { endpoints } from '@tandem/contracts';
import type { RawResponse } from '../http';
import { envelopeProblems, readAnswer } from '../verdict';
import type { FuzzPlan } from './requests';

const CSV_ENDPOINTS = new Set(['collectedItems', 'taskExtractions', 'stack']);
const NOT_A_LEAK = [400, 404, 413, 415, 422, 429];

/** MAX_BODY_BYTES' default: past it a server may close the connection instead of reading on. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A path with dot segments means another route once resolved (RFC 3986): any route may answer. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|\?|$)/i;

/** The connection closed while an over-limit body was still being written (not a failure). */
export const closedOnBigBody = (res: RawResponse, bodyBytes: number): boolean =>
  Boolean(res.error && /EPIPE|ECONNRESET/.test(res.error) && bodyBytes > MAX_BODY_BYTES);

export function fuzzProblems(
  plan: FuzzPlan,
  res: RawResponse,
  victimIds: string[],
  bodyBytes: number,
  path: string,
): string[] {
  // The 413 may be lost when the server closes while the rest is still being written.
  if (closedOnBigBody(res, bodyBytes)) return [];
  const endpoint = endpoints[plan.endpoint];
  const stream = 'stream' in endpoint && endpoint.stream === 'sse';
  const answer = readAnswer(res);
  const problems = envelopeProblems(answer, { stream, csv: CSV_ENDPOINTS.has(plan.endpoint) });
  if (res.error) return problems;
  const ok = res.status >= 200 && res.status < 300;
  if (ok && !DOT_SEGMENT.test(path)) {
    const statuses: readonly number[] =
      'successStatuses' in endpoint && endpoint.successStatuses ? endpoint.successStatuses : [200];
    if (!statuses.includes(res.status))
      problems.push(`success status ${res.status}, not ${statuses.join('/')}`);
    const isJson = String(res.headers['content-type'] ?? '').includes('application/json');
    if (!stream && isJson && answer.body !== undefined) {
      const parsed = endpoint.response.safeParse(answer.body);
      if (!parsed.success)
        problems.push(
          `2xx body does not match the response schema: ${parsed.error.issues
            .slice(0, 2)
            .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
            .join('; ')}`,
        );
    }
  }
  if (ok) {
    const leaked = victimIds.filter((id) => res.text.includes(id));
    if (leaked.length > 0) problems.push(`answer carries tenant B's ids: ${leaked.join(', ')}`);
  }
  const victim = Object.values(plan.params).some((p) => p.mode === 'victim');
  if (victim && (plan.auth === 'pool' || plan.auth === 'owner') && !NOT_A_LEAK.includes(res.status))
    problems.push(`tenant B's id answered ${res.status}, not 404`);
  // A path no route can take (a malformed percent-encoding, a dot segment) is answered before
  // any route, so before authentication: 400 or 404 whoever asks.
  const unroutable =
    Object.values(plan.params).some((p) => p.mode === 'malformed') &&
    [400, 404].includes(res.status);
  if (
    (plan.auth === 'none' || plan.auth === 'bogus') &&
    endpoint.auth !== 'none' &&
    !unroutable &&
    ![401, 429].includes(res.status)
  )
    problems.push(`no valid key answered ${res.status}, not 401`);
  return problems;
}
