// A hostile case: one attack on one route. `prepare` builds the input before anything is
// measured (generating a 1 GiB bomb takes CPU the server's latency must not pay for); the
// function it returns sends it while the monitor runs, and says what came back.
import { send as sendRaw, type RawRequest, type RawResponse } from '../http';
import type { HostileStack } from '../stack';
import { envelopeProblems, readAnswer, type Expectation } from '../verdict';

export interface Outcome {
  /** "422", or "2×201, 198×429" for a case of many requests. */
  status: string;
  code: string;
  /** The slowest answer's time. */
  ms: number;
  problems: string[];
  note?: string;
}

export interface HostileCase {
  name: string;
  /** What the input is, for the README. */
  what: string;
  /** "POST /api/documents". */
  route: string;
  /** The expectation's label in the table. */
  expected: string;
  /** In the --quick subset (and CI). */
  quick: boolean;
  prepare(stack: HostileStack): Promise<() => Promise<Outcome>>;
}

/** Sends to the stack's server; a case waits at most 5 minutes (today's server took 148 s). */
export const send = (stack: HostileStack, req: RawRequest): Promise<RawResponse> =>
  sendRaw(stack.url, { timeoutMs: 300_000, ...req });

/** The outcome of one request against an expectation (and the envelope rules). */
export function judge(
  res: RawResponse,
  expectation: Expectation,
  allowed: { stream?: boolean } = {},
): Outcome {
  const answer = readAnswer(res);
  const problems = [...envelopeProblems(answer, allowed), ...expectation.problems(answer)];
  return {
    status: res.error ? 'none' : String(res.status),
    code: answer.code,
    ms: res.ms,
    problems: [...new Set(problems)],
  };
}

/** A case of one request: `build` makes it (before measuring), `expectation` judges it. */
export function single(
  spec: Omit<HostileCase, 'prepare' | 'expected'> & {
    expectation: Expectation;
    stream?: boolean;
    build(stack: HostileStack): Promise<RawRequest> | RawRequest;
    /** Checks after the answer (e.g. that nothing was written outside the data dir). */
    after?(stack: HostileStack): string[];
  },
): HostileCase {
  return {
    name: spec.name,
    what: spec.what,
    route: spec.route,
    quick: spec.quick,
    expected: spec.expectation.label,
    async prepare(stack) {
      const req = await spec.build(stack);
      return async () => {
        const outcome = judge(await send(stack, req), spec.expectation, {
          stream: spec.stream ?? false,
        });
        outcome.problems.push(...(spec.after?.(stack) ?? []));
        return outcome;
      };
    },
  };
}
