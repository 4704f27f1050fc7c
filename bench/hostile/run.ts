// bench/hostile ("No input can freeze the server"): the real server with every default,
// attacked by one tenant's hostile inputs — bombs, malformed files, deep nesting, prototype
// keys, malformed paths, 200 concurrent runs — while /api/health, another tenant's agent steps
// and the server's RSS are measured; then a seeded fuzz of every JSON and multipart route.
//
//   npm run bench:hostile                                  every case, 60 s idle, 4,000-request fuzz
//   npm run bench:hostile -- --quick     the fast subset, 500-request fuzz
//   npm run bench:hostile -- --case png-bomb
//   npm run bench:hostile -- --fuzz 4000 [--seed 27] [--replay 123]
//
// Targets: every answer as expected (never a 5xx, always the JSON envelope), health p99 ≤ 100 ms
// and tenant B's p99 ≤ 250 ms during every case, RSS ≤ baseline + 512 MB during every case and
// within 20 % of the baseline a minute after, the server never restarts. Exit code 1 otherwise.
import { parseArgs } from 'node:util';
import { HOSTILE_CASES } from './cases';
import { FUZZ_SEED, printFuzz, runFuzz } from './fuzz';
import { rssMb } from './monitor';
import { caseOk, healthOk, interactOk, rssOk, serverErrors, summary, table } from './report';
import { startHostileStack, type HostileStack } from './stack';
import { idle, runCases, TARGETS } from './suite';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    case: { type: 'string' },
    fuzz: { type: 'string' },
    seed: { type: 'string' },
    replay: { type: 'string' },
    idle: { type: 'string' },
  },
});

async function casesPart(stack: HostileStack): Promise<boolean> {
  const chosen = args.case
    ? HOSTILE_CASES.filter((c) => c.name === args.case || c.name.startsWith(`${args.case}@`))
    : HOSTILE_CASES.filter((c) => !args.quick || c.quick);
  if (chosen.length === 0) throw new Error(`no case named ${args.case}`);
  console.log(`bench/hostile: ${chosen.length} cases against ${stack.url} (pid ${stack.pid})`);
  const { rows, baselineMb } = await runCases(stack, chosen, (row) =>
    console.log(
      `  ${caseOk(row) ? 'ok  ' : 'FAIL'} ${row.name}: ${row.status} ${row.code} in ${Math.round(row.ms)} ms` +
        (caseOk(row) ? '' : ` — ${row.problems.join('; ')}`),
    ),
  );
  console.log(`\nRSS baseline (after warm-up): ${baselineMb.toFixed(0)} MB\n`);
  console.log(table(rows));
  console.log(`\n${summary(rows, stack.restarts)}`);
  let idleOk = true;
  const idleSeconds = Number(args.idle ?? (args.quick || args.case ? 0 : 60));
  if (idleSeconds > 0) {
    const samples = await idle(stack, idleSeconds);
    const after = samples.at(-1) ?? rssMb(stack.pid);
    idleOk = after / baselineMb <= TARGETS.idleRatio;
    console.log(
      `RSS ${idleSeconds} s after the last case: ${after.toFixed(0)} MB, ${((after / baselineMb) * 100).toFixed(0)} % of the ${baselineMb.toFixed(0)} MB baseline (target ≤ ${TARGETS.idleRatio * 100} %)${idleOk ? '' : ' ✗'}; every 5 s: ${samples.map((m) => m.toFixed(0)).join(' ')}`,
    );
  }
  return (
    rows.every((r) => caseOk(r) && healthOk(r) && interactOk(r) && rssOk(r)) &&
    serverErrors(rows) === 0 &&
    stack.restarts === 0 &&
    idleOk
  );
}

async function fuzzPart(stack: HostileStack, requests: number): Promise<boolean> {
  const seed = Number(args.seed ?? FUZZ_SEED);
  const replay = args.replay === undefined ? undefined : Number(args.replay);
  const result = await runFuzz(stack, {
    requests,
    seed,
    ...(replay === undefined ? {} : { replay }),
  });
  printFuzz(result);
  // A replay is for reading what the server did with that one request.
  if (replay !== undefined) console.log(`\nserver output:\n${stack.output().slice(-6_000)}`);
  return result.failures.length === 0;
}

async function main() {
  const fuzzOnly = args.fuzz !== undefined;
  const stack = await startHostileStack();
  let ok = true;
  try {
    if (!fuzzOnly) ok = (await casesPart(stack)) && ok;
    if (!args.case) {
      const requests = Number(args.fuzz ?? (args.quick ? 500 : 4_000));
      ok = (await fuzzPart(stack, requests)) && ok;
    }
  } finally {
    await stack.close();
  }
  console.log(ok ? '\nbench/hostile: every target met' : '\nbench/hostile: targets MISSED');
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
