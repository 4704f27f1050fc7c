// The seeded route fuzz: requests drawn by fast-check from the endpoint registry
// (fuzz/requests.ts) against the real server, every answer checked (fuzz/check.ts). The default
// per-tenant limit (120 requests a minute) is not raised: requests are spread over a pool of
// tenants and paced under it, as many users would send them, so the answers are the routes'
// own and not mostly 429s. Requests without a valid key come from addresses of their own on
// loopback (127.0.1.x): 20 failed authentications a minute block an address for 5 minutes.
//
//   npm run bench:hostile -- --fuzz 4000 [--seed 27] [--replay 123]
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endpoints } from '@tandem/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { send, type RawRequest, type RawResponse } from './http';
import { monitor, rssMb, type Figures } from './monitor';
import { closedOnBigBody, fuzzProblems } from './fuzz/check';
import { renderBody } from './fuzz/bodies';
import { renderMultipart } from './fuzz/multipart';
import { drawPlans, type FuzzPlan } from './fuzz/requests';
import { makeResources, type Resources } from './fuzz/resources';
import { startHostileStack, type HostileStack, type Tenant } from './stack';

export const FUZZ_SEED = 27;
const CONCURRENCY = 8;
/** Under the default 120 a minute per tenant, with room for the owners' own-id requests. */
const PER_TENANT_PER_MINUTE = 60;
/** Tenants with resources (own ids), apart from the pool: their requests come on top. */
const OWNERS = 4;
const STREAM_WINDOW_MS = 1_500;

export interface FuzzFailure {
  index: number;
  endpoint: string;
  request: string;
  status: number;
  code: string;
  problems: string[];
}

export interface FuzzResult {
  seed: number;
  /** Requests drawn from the seed (a replay sends one of them). */
  drawn: number;
  requests: number;
  byStatus: Record<string, number>;
  failures: FuzzFailure[];
  seconds: number;
  figures: Figures;
  slowest: { request: string; ms: number }[];
}

interface FuzzWorld {
  pool: Tenant[];
  owners: { tenant: Tenant; resources: Resources }[];
  victim: Resources;
}

function pathOf(plan: FuzzPlan, world: FuzzWorld, index: number): string {
  const owner = world.owners[index % world.owners.length];
  return endpoints[plan.endpoint].path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    const param = plan.params[name];
    const idOf = (r?: Resources) => r?.ids[name as keyof Resources['ids']];
    if (param?.mode === 'own')
      return encodeURIComponent(idOf(owner?.resources) ?? 'missing-own-id');
    if (param?.mode === 'victim')
      return encodeURIComponent(idOf(world.victim) ?? 'missing-victim-id');
    return param?.raw || 'x';
  });
}

/** The HTTP request of plan `index`. */
export function render(plan: FuzzPlan, world: FuzzWorld, index: number): RawRequest {
  const endpoint = endpoints[plan.endpoint];
  const headers: Record<string, string> = {};
  const key =
    plan.auth === 'owner'
      ? world.owners[index % world.owners.length]?.tenant.key
      : plan.auth === 'pool'
        ? world.pool[index % world.pool.length]?.key
        : plan.auth === 'bogus'
          ? `tdm_bogus_${index}`
          : undefined;
  if (key) headers.authorization = `Bearer ${key}`;
  let body: Buffer | undefined;
  if (plan.form) {
    const form = renderMultipart(plan.form);
    body = form.body;
    headers['content-type'] = form.contentType;
  } else if (plan.body) {
    body = renderBody(plan.body.body);
    if (plan.body.contentType) headers['content-type'] = plan.body.contentType;
  }
  const stream = 'stream' in endpoint && endpoint.stream === 'sse';
  return {
    method: endpoint.method,
    path: pathOf(plan, world, index) + plan.query,
    headers,
    ...(body && body.length > 0 ? { body } : {}),
    timeoutMs: 60_000,
    ...(stream ? { bodyWindowMs: STREAM_WINDOW_MS } : {}),
    ...(plan.auth === 'none' || plan.auth === 'bogus'
      ? { localAddress: `127.0.1.${(index % 250) + 1}` }
      : {}),
  };
}

export function describe(plan: FuzzPlan, req: RawRequest): string {
  const size = req.body === undefined ? '' : ` (${Buffer.from(req.body).length} B)`;
  const head = `${plan.endpoint} [${plan.kind}] ${req.method} ${req.path.slice(0, 120)}${req.path.length > 120 ? '…' : ''} ${req.headers?.['content-type'] ?? ''}${size}`;
  if (plan.form) {
    // What the form carried: its fields, and each file's name, type and first bytes.
    const fields = plan.form.fields.map(([k, v]) => `${k}=${JSON.stringify(v.slice(0, 30))}`);
    const files = plan.form.files.map(
      (f) =>
        `${f.field}: ${JSON.stringify(f.fileName.slice(0, 40))} ${f.contentType || '(no type)'} ${f.data.length} B ${Buffer.from(f.data.slice(0, 12)).toString('hex')}`,
    );
    return `${head} ${[...fields, ...files].join(', ')}`;
  }
  const body =
    req.body === undefined ? '' : Buffer.from(req.body).subarray(0, 100).toString('utf8');
  return `${head} ${JSON.stringify(body)}`;
}

async function makeWorld(stack: HostileStack, requests: number): Promise<FuzzWorld> {
  const pool = await stack.tenants('fuzz', Math.min(60, Math.max(4, Math.ceil(requests / 80))));
  const owners = [];
  for (const tenant of await stack.tenants('fuzz-owner', OWNERS))
    owners.push({ tenant, resources: await makeResources(stack, tenant) });
  const victim = await makeResources(stack, stack.tenantB);
  const missing = Object.entries(victim.ids).filter(([, id]) => !id);
  if (missing.length > 0)
    console.log(
      `  fuzz: tenant B has no ${missing.map(([name]) => name).join(', ')}: those ids are random`,
    );
  return { pool, owners, victim };
}

export async function runFuzz(
  stack: HostileStack,
  options: { requests: number; seed: number; replay?: number },
): Promise<FuzzResult> {
  const plans = drawPlans(options.seed, options.requests);
  const chosen = plans
    .map((p, i) => [i, p] as const)
    .filter(([i]) => options.replay === undefined || i === options.replay);
  const world = await makeWorld(stack, options.requests);
  const intervalMs = 60_000 / (world.pool.length * PER_TENANT_PER_MINUTE);
  const result: FuzzResult = {
    seed: options.seed,
    drawn: options.requests,
    requests: chosen.length,
    byStatus: {},
    failures: [],
    seconds: 0,
    figures: undefined as unknown as Figures,
    slowest: [],
  };
  const timings: { request: string; ms: number }[] = [];
  const stop = await monitor(stack, rssMb(stack.pid));
  const started = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (const [index, plan] of chosen) {
    while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
    const req = render(plan, world, index);
    const task = send(stack.url, req).then((res: RawResponse) => {
      const bodyBytes = req.body?.length ?? 0;
      const label = closedOnBigBody(res, bodyBytes)
        ? 'closed on a body over MAX_BODY_BYTES'
        : res.error
          ? 'no answer'
          : String(res.status);
      result.byStatus[label] = (result.byStatus[label] ?? 0) + 1;
      timings.push({ request: `#${index} ${plan.endpoint} [${plan.kind}]`, ms: res.ms });
      const problems = fuzzProblems(plan, res, world.victim.all, bodyBytes, req.path);
      if (problems.length > 0 || options.replay !== undefined)
        result.failures.push({
          index,
          endpoint: plan.endpoint,
          request: describe(plan, req),
          status: res.status,
          code: res.text.match(/"code":"([A-Z_]+)"/)?.[1] ?? '',
          problems,
        });
    });
    const tracked = task.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    await sleep(intervalMs);
  }
  await Promise.all(inFlight);
  result.seconds = (performance.now() - started) / 1000;
  result.figures = await stop();
  result.slowest = timings.sort((a, b) => b.ms - a.ms).slice(0, 5);
  result.failures.sort((a, b) => a.index - b.index);
  return result;
}

/** Failures of one kind: same status, code and first problem (numbers and ids left out). */
function failureGroups(failures: FuzzFailure[]) {
  const groups = new Map<string, { count: number; endpoints: Set<string>; first: number }>();
  for (const f of failures) {
    const first = (f.problems[0] ?? '').replace(/\?\S*/g, '').replace(/\d+/g, 'N');
    const key = `${f.status} ${f.code || '–'}: ${first.slice(0, 90)}`;
    const group = groups.get(key) ?? { count: 0, endpoints: new Set<string>(), first: f.index };
    group.count += 1;
    group.endpoints.add(f.endpoint);
    groups.set(key, group);
  }
  return [...groups.entries()].sort(([, a], [, b]) => b.count - a.count);
}

export function printFuzz(result: FuzzResult): void {
  const statuses = Object.entries(result.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  const fivexx = Object.entries(result.byStatus)
    .filter(([s]) => Number(s) >= 500)
    .reduce((n, [, c]) => n + c, 0);
  console.log(
    `\nfuzz: ${result.requests} requests, seed ${result.seed}, ${result.seconds.toFixed(0)} s — ${statuses}`,
  );
  console.log(
    `  ${fivexx} × 5xx; ${result.failures.length} requests with problems; health p99 ${result.figures.healthP99.toFixed(0)} ms, tenant B p99 ${result.figures.interactP99.toFixed(0)} ms, RSS peak +${result.figures.rssPeakOverMb.toFixed(0)} MB`,
  );
  console.log(
    `  slowest: ${result.slowest.map((s) => `${s.request} ${Math.round(s.ms)} ms`).join('; ')}`,
  );
  if (result.failures.length === 0) return;
  console.log('  by kind (count, endpoints, first request):');
  for (const [key, g] of failureGroups(result.failures))
    console.log(`    ${g.count} × ${key} — ${[...g.endpoints].join(', ')} (#${g.first})`);
  console.log('  the first 20:');
  for (const failure of result.failures.slice(0, 20)) {
    console.log(
      `  #${failure.index} → ${failure.status} ${failure.code}: ${failure.problems.join('; ')}\n      ${failure.request}`,
    );
  }
  const file = path.join(tmpdir(), `tandem-hostile-fuzz-${result.seed}-${result.drawn}.json`);
  writeFileSync(file, JSON.stringify(result.failures, null, 1));
  console.log(`  every failure: ${file}`);
  console.log(
    `  replay one: npm run bench:hostile -- --fuzz ${result.drawn} --seed ${result.seed} --replay <#>`,
  );
}

// On its own: `tsx hostile/fuzz.ts [requests] [seed]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const requests = Number(process.argv[2] ?? 4_000);
  const seed = Number(process.argv[3] ?? FUZZ_SEED);
  const stack = await startHostileStack();
  try {
    const result = await runFuzz(stack, { requests, seed });
    printFuzz(result);
    if (result.failures.length > 0) process.exitCode = 1;
  } finally {
    await stack.close();
  }
}
