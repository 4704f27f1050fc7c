// What an answer must be. Every /api/ answer: a status below 500, no redirect, JSON (an event
// stream or a CSV file only where the route says so), errors in the one envelope
// `{ error: { code, message } }` with the code's contract status and a plain message (no stack,
// no HTML), Retry-After on every 429. Then what each case expects on top (expectations below):
// a refusal with its status, code and the setting its message must name, or a processed answer
// that parses against the route's response schema, with the warnings that say where work was cut.
import {
  ERROR_HTTP_STATUS,
  ErrorResponse,
  type EndpointDefinition,
  type ErrorCode,
} from '@tandem/contracts';
import type { RawResponse } from './http';

/** A refusal must come within this; processed cases have a budget of their own. */
export const REFUSAL_DEADLINE_MS = 10_000;

/**
 * Problems about time start with this mark, so a run on a shared machine (CI) can print them
 * without failing on them.
 */
export const TIME_MARK = '⏱ ';
export const isTimeProblem = (problem: string) => problem.startsWith(TIME_MARK);

export interface Answer {
  res: RawResponse;
  /** The JSON body, when it was JSON. */
  body: unknown;
  /** The error code, when the body was an error envelope. */
  code: string;
}

const contentType = (res: RawResponse) => String(res.headers['content-type'] ?? '');

export function readAnswer(res: RawResponse): Answer {
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    body = undefined;
  }
  const envelope = ErrorResponse.safeParse(body);
  return { res, body, code: envelope.success ? envelope.data.error.code : '' };
}

/** Signs of a message that is not plain: a stack, a path into the code, an HTML page. */
const UNPLAIN = [/\n\s+at /, /node_modules/, /<html/i, /\.ts:\d+/, /webpack/];

/** What is wrong with an answer whatever was asked (empty when nothing). */
export function envelopeProblems(
  answer: Answer,
  allowed: { stream?: boolean; csv?: boolean } = {},
): string[] {
  const { res, body } = answer;
  if (res.error) return [`no answer: ${res.error}`];
  const problems: string[] = [];
  const type = contentType(res);
  if (res.status >= 500) problems.push(`server error ${res.status}`);
  if (res.status >= 300 && res.status < 400)
    problems.push(`redirect ${res.status} to ${String(res.headers.location ?? '?')}`);
  if (res.status >= 200 && res.status < 300) {
    const streamed = allowed.stream && type.startsWith('text/event-stream');
    const csv = allowed.csv && type.startsWith('text/csv');
    if (!streamed && !csv && (!type.includes('application/json') || body === undefined))
      problems.push(`2xx that is not JSON (${type || 'no content-type'})`);
    return problems;
  }
  if (res.status < 400) return problems;
  const envelope = ErrorResponse.safeParse(body);
  if (!envelope.success) {
    problems.push(`not the JSON envelope (${type || 'no content-type'}: ${res.text.slice(0, 80)})`);
    return problems;
  }
  const { code, message } = envelope.data.error;
  const expected = ERROR_HTTP_STATUS[code as ErrorCode];
  if (expected !== res.status) problems.push(`${code} answered ${res.status}, not ${expected}`);
  if (UNPLAIN.some((sign) => sign.test(message)))
    problems.push(`message is not plain: ${message.slice(0, 80)}`);
  if (res.status === 429 && !/^\d+$/.test(String(res.headers['retry-after'] ?? '')))
    problems.push('429 without a Retry-After in seconds');
  return problems;
}

/** A case's expectation: its label in the table, and what is wrong with an answer. */
export interface Expectation {
  label: string;
  problems(answer: Answer): string[];
}

const messageOf = (answer: Answer): string =>
  ErrorResponse.safeParse(answer.body).data?.error.message ?? '';

/** "answered 502 LLM_ERROR (“The language model failed…”)": what came back, in a problem. */
function answered(answer: Answer): string {
  const message = messageOf(answer);
  const quote = message ? ` (“${message.slice(0, 120)}${message.length > 120 ? '…' : ''}”)` : '';
  return `answered ${answer.res.status || 'nothing'}${answer.code ? ` ${answer.code}` : ''}${quote}`;
}

/**
 * A refusal: one of `statuses`, one of `codes` when given, and a message naming one of
 * `settings` when given (the limit that refused it), within REFUSAL_DEADLINE_MS.
 */
export function refused(
  label: string,
  want: { statuses: number[]; codes?: string[]; settings?: string[] },
): Expectation {
  return {
    label,
    problems(answer) {
      const { res, code } = answer;
      const out: string[] = [];
      if (!want.statuses.includes(res.status)) out.push(`${answered(answer)}, not ${label}`);
      else if (want.codes && !want.codes.includes(code))
        out.push(`code ${code || 'none'}, not ${want.codes.join(' or ')}`);
      const message = messageOf(answer);
      if (res.status >= 400 && want.settings && !want.settings.some((s) => message.includes(s)))
        out.push(`message names no ${want.settings.join('/')}: "${message.slice(0, 100)}"`);
      if (res.status >= 400 && res.ms > REFUSAL_DEADLINE_MS)
        out.push(`${TIME_MARK}refused after ${Math.round(res.ms)} ms (> ${REFUSAL_DEADLINE_MS})`);
      return out;
    },
  };
}

/** Any 4xx with a plain message (where the target leaves 400 vs 422 open). */
export const anyRefusal = (label = 'any 4xx'): Expectation =>
  refused(label, { statuses: [400, 403, 404, 409, 413, 415, 422, 429] });

/** The input over budget: 422 INPUT_TOO_COMPLEX naming one of `settings`. */
export const tooComplex = (...settings: string[]): Expectation =>
  refused(`422 ${settings.join('|')}`, {
    statuses: [422],
    codes: ['INPUT_TOO_COMPLEX'],
    settings,
  });

/** A file that is not what it says: 400. */
export const malformed = (): Expectation =>
  refused('400 malformed', { statuses: [400], codes: ['BAD_REQUEST', 'VALIDATION_ERROR'] });

/**
 * Processed: 2xx parsing against `schema`, within `budgetMs`, with a warning naming each of
 * `warnings` (where the work was cut), and whatever `check` finds wrong in the body.
 */
export function processed(
  label: string,
  want: {
    schema?: EndpointDefinition['response'];
    budgetMs: number;
    warnings?: string[];
    check?: (body: unknown) => string[];
  },
): Expectation {
  return {
    label,
    problems(answer) {
      const { res, body } = answer;
      if (res.status < 200 || res.status >= 300) return [`${answered(answer)}, not ${label}`];
      const out: string[] = [];
      if (res.ms > want.budgetMs)
        out.push(`${TIME_MARK}took ${Math.round(res.ms)} ms (budget ${want.budgetMs} ms)`);
      if (want.schema && body !== undefined) {
        const parsed = want.schema.safeParse(body);
        if (!parsed.success)
          out.push(
            `body does not match the response schema: ${parsed.error.message.slice(0, 120)}`,
          );
      }
      const text = JSON.stringify(body ?? '');
      for (const setting of want.warnings ?? [])
        if (!text.includes(setting)) out.push(`no warning names ${setting}`);
      out.push(...(want.check?.(body) ?? []));
      return out;
    },
  };
}

/** Either expectation holds (a processed answer or a refusal both being right). */
export function either(label: string, a: Expectation, b: Expectation): Expectation {
  return {
    label,
    problems(answer) {
      const first = a.problems(answer);
      if (first.length === 0) return [];
      const second = b.problems(answer);
      return second.length === 0 ? [] : answer.res.status < 300 ? first : second;
    },
  };
}
