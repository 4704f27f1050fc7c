// `npm test`: install, then lint, format check, typecheck and every test tier across the
// workspace (through turbo: unit, integration, and the Playwright e2e suite after the server
// and extension builds), and end with one line `N passed, N failed` carrying the real
// totals: every test case from every vitest/Playwright report, plus every lint, format and
// typecheck run counted as one check.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { install, pnpm, root } from './pnpm.mjs';

const reports = path.join(root, '.reports');
const runs = path.join(root, '.turbo', 'runs');

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** `file › test` for each failed test of a vitest report (a suite that did not load: its file). */
function vitestFailures(report) {
  return (report.testResults ?? []).flatMap((suite) => {
    const file = path.relative(root, suite.name ?? '');
    const failed = (suite.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (failed.length === 0) return suite.status === 'failed' ? [`${file} (did not load)`] : [];
    return failed.map((a) => `${file} › ${a.fullName ?? a.title}`);
  });
}

/** `file › test` for each Playwright test that failed or passed only on a retry. */
function playwrightFailures(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      (spec.tests ?? [])
        .filter((t) => t.status === 'unexpected' || t.status === 'flaky')
        .map((t) => `${spec.file} › ${spec.title}${t.status === 'flaky' ? ' (flaky)' : ''}`),
    ),
    ...playwrightFailures(suite.suites ?? []),
  ]);
}

/** Sums vitest JSON reports (and Playwright's, which e2e writes as playwright-*.json). */
function testTotals() {
  const totals = { passed: 0, failed: 0, skipped: 0, byReport: {}, names: [] };
  if (!existsSync(reports)) return totals;
  for (const file of readdirSync(reports).filter((f) => f.endsWith('.json'))) {
    const r = readJson(path.join(reports, file));
    if (!r) continue;
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    if (typeof r.numPassedTests === 'number') {
      passed = r.numPassedTests;
      failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
      skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
      // A suite that failed to load reports no tests but is a failure.
      failed += (r.testResults ?? []).filter(
        (s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0,
      ).length;
      totals.names.push(...vitestFailures(r));
    } else if (r.stats) {
      passed = r.stats.expected ?? 0;
      failed = (r.stats.unexpected ?? 0) + (r.stats.flaky ?? 0);
      skipped = r.stats.skipped ?? 0;
      totals.names.push(...playwrightFailures(r.suites ?? []));
    }
    totals.passed += passed;
    totals.failed += failed;
    totals.skipped += skipped;
    totals.byReport[file.replace(/\.json$/, '')] = { passed, failed };
  }
  return totals;
}

/** Per-task outcomes from every turbo run summary of this invocation. */
function turboTasks() {
  if (!existsSync(runs)) return [];
  const summaries = readdirSync(runs)
    .filter((f) => f.endsWith('.json'))
    .map((f) => readJson(path.join(runs, f)))
    .filter(Boolean);
  return summaries
    .flatMap((summary) => summary.tasks ?? [])
    .map((t) => ({
      id: t.taskId,
      task: t.task,
      pkg: t.package,
      dir: t.directory ?? '',
      exitCode: t.execution?.exitCode ?? (t.execution?.error ? 1 : 0),
    }));
}

let checksPassed = 0;
let checksFailed = 0;
let extraFailures = 0;
const failedNames = [];

try {
  await install();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

rmSync(reports, { recursive: true, force: true });
rmSync(runs, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const formatCode = await pnpm(['exec', 'prettier', '--check', '.', '--log-level', 'warn']);
if (formatCode === 0) checksPassed += 1;
else {
  checksFailed += 1;
  failedNames.push('format (prettier --check; fix with npm run format)');
}

// Three phases, so timing-sensitive tests never share two cores with a build or another
// package's suite: static checks in parallel, then each package's tests one at a time, then
// the builds and the Playwright suite.
const turbo = (tasks, concurrency) =>
  pnpm([
    'exec',
    'turbo',
    'run',
    ...tasks,
    '--continue',
    '--summarize',
    `--concurrency=${concurrency}`,
    '--output-logs=new-only',
  ]);
const codes = [
  await turbo(['lint', 'typecheck'], 2),
  await turbo(['test'], 1),
  await turbo(['e2e'], 1),
];
const turboCode = codes.find((c) => c !== 0) ?? 0;

const tasks = turboTasks();
const totals = testTotals();
for (const t of tasks) {
  if (t.task === 'build') {
    // Builds run only as e2e prerequisites; a broken build fails the e2e run (counted there).
    if (t.exitCode !== 0) {
      checksFailed += 1;
      failedNames.push(t.id);
    }
    continue;
  }
  if (t.task === 'e2e') {
    if (t.exitCode !== 0 && !((totals.byReport['playwright-e2e']?.failed ?? 0) > 0)) {
      extraFailures += 1;
      failedNames.push(`${t.id} (exited ${t.exitCode})`);
    }
    continue;
  }
  if (t.task === 'test') {
    // A test task that failed without a report (crash, config error) still counts as a failure.
    const report =
      totals.byReport[`vitest-${t.dir.split(path.sep).join('-').split('/').join('-')}`];
    const hasFailuresReported = (report?.failed ?? 0) > 0;
    if (t.exitCode !== 0 && !hasFailuresReported) {
      extraFailures += 1;
      failedNames.push(`${t.id} (exited ${t.exitCode})`);
    }
    continue;
  }
  if (t.exitCode === 0) checksPassed += 1;
  else {
    checksFailed += 1;
    failedNames.push(t.id);
  }
}
if (tasks.length === 0 && turboCode !== 0) {
  extraFailures += 1;
  failedNames.push(`turbo exited ${turboCode} without a run summary`);
}

const passed = totals.passed + checksPassed;
const failed = totals.failed + checksFailed + extraFailures;
console.log('');
console.log(
  `tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped; ` +
    `checks (lint, typecheck, format): ${checksPassed} passed, ${checksFailed} failed`,
);
// Each failed test by name, just above the totals, where a log's tail still shows it.
for (const name of totals.names.slice(0, 20)) console.log(`failed test: ${name}`);
if (totals.names.length > 20) console.log(`failed test: … and ${totals.names.length - 20} more`);
if (failedNames.length > 0) console.log(`failed: ${failedNames.join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || turboCode !== 0 ? 1 : 0);
