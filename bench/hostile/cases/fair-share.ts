// One tenant starts 200 document extractions at once (all were accepted). Per-tenant
// caps keep one tenant from taking the server: at most DOCUMENT_RUNS_PER_TENANT (2 by default)
// runs go on, the rest are told 429 CONCURRENCY_LIMITED with Retry-After (or RATE_LIMITED,
// past the tenant's 120 requests a minute), quickly. The scripted model answers document turns
// after 1.5 s so the accepted runs are still going while the others arrive.
import { jsonRequest, uploadRequest } from '../http';
import type { RawResponse } from '../http';
import { envelopeProblems, readAnswer, REFUSAL_DEADLINE_MS, TIME_MARK } from '../verdict';
import { send, type HostileCase, type Outcome } from './types';

const REQUESTS = 200;
/** DOCUMENT_RUNS_PER_TENANT's default. */
const RUNS_PER_TENANT = 2;
const TURN_DELAY_MS = 1_500;

const tally = (values: string[]) =>
  Object.entries(
    values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {}),
  )
    .map(([value, n]) => `${n}×${value}`)
    .join(', ');

export function judgeFairShare(answers: RawResponse[]): Outcome {
  const read = answers.map(readAnswer);
  const problems = new Set<string>();
  for (const answer of read)
    for (const p of envelopeProblems(answer, { stream: true })) problems.add(p);
  const accepted = read.filter((a) => a.res.status >= 200 && a.res.status < 300).length;
  if (accepted > RUNS_PER_TENANT)
    problems.add(
      `${accepted} runs accepted at once (DOCUMENT_RUNS_PER_TENANT is ${RUNS_PER_TENANT})`,
    );
  const refusals = read.filter((a) => a.res.status >= 300);
  for (const a of refusals) {
    if (a.res.status !== 429 || !['CONCURRENCY_LIMITED', 'RATE_LIMITED'].includes(a.code))
      problems.add(`refused with ${a.res.status} ${a.code || ''}, not 429 CONCURRENCY_LIMITED`);
  }
  if (!refusals.some((a) => a.code === 'CONCURRENCY_LIMITED'))
    problems.add('no request was refused CONCURRENCY_LIMITED');
  const slowest = Math.max(0, ...refusals.map((a) => a.res.headersMs));
  if (slowest > REFUSAL_DEADLINE_MS)
    problems.add(`${TIME_MARK}a refusal took ${Math.round(slowest)} ms`);
  return {
    status: tally(read.map((a) => (a.res.error ? 'none' : String(a.res.status)))),
    code: tally(read.filter((a) => a.code).map((a) => a.code)),
    ms: Math.max(0, ...read.map((a) => a.res.headersMs).filter(Number.isFinite)),
    problems: [...problems],
  };
}

export const FAIR_SHARE: HostileCase = {
  name: 'fair-share-200-runs',
  what: `${REQUESTS} concurrent POST /api/extractions from one tenant (a fresh one)`,
  route: `${REQUESTS}× POST /api/extractions`,
  expected: `≤ ${RUNS_PER_TENANT} accepted, 429s`,
  quick: true,
  async prepare(stack) {
    const [tenant] = await stack.tenants('fair-share', 1);
    if (!tenant) throw new Error('no tenant');
    const upload = await send(
      stack,
      uploadRequest(tenant.key, '/api/documents', {
        fileName: 'memo.txt',
        contentType: 'text/plain',
        data: Buffer.from('MEMO\nSubject: fair share\nTotal: 12.50\n'),
      }),
    );
    const documentId = (JSON.parse(upload.text) as { document?: { id?: string } }).document?.id;
    if (!documentId) throw new Error(`upload failed: ${upload.status} ${upload.text}`);
    const request = jsonRequest(tenant.key, 'POST', '/api/extractions', { documentId });
    return async () => {
      await stack.model.setDocumentDelay(TURN_DELAY_MS);
      try {
        const answers = await Promise.all(
          Array.from({ length: REQUESTS }, () => send(stack, { ...request, timeoutMs: 120_000 })),
        );
        return judgeFairShare(answers);
      } finally {
        await stack.model.setDocumentDelay(0);
      }
    };
  },
};
