// The suite's table (Markdown, so a run pastes into the README as is) and its summary line.
import { TARGETS, type CaseRow } from './suite';

const num = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const signed = (n: number) => (n >= 0 ? `+${num(n)}` : num(n));
const mark = (ok: boolean) => (ok ? '' : ' ✗');

export const caseOk = (row: CaseRow) => row.problems.length === 0;
export const healthOk = (row: CaseRow) => row.figures.healthP99 <= TARGETS.healthP99Ms;
export const interactOk = (row: CaseRow) => row.figures.interactP99 <= TARGETS.interactP99Ms;
export const rssOk = (row: CaseRow) =>
  !(row.figures.rssPeakOverMb > TARGETS.rssOverMb) && Number.isFinite(row.figures.rssPeakMb);

/** Counts every 5xx answer of the rows (a row of many requests counts each). */
export function serverErrors(rows: CaseRow[]): number {
  let count = 0;
  for (const row of rows)
    for (const part of row.status.split(', ')) {
      const m = /^(?:(\d+)×)?(\d{3})$/.exec(part);
      if (m && Number(m[2]) >= 500) count += Number(m[1] ?? 1);
    }
  return count;
}

/** The table, then what was wrong with each case that missed (numbered in the table). */
export function table(rows: CaseRow[]): string {
  const header = [
    'case',
    'route',
    'status',
    'code',
    'ms',
    'expected',
    'as expected?',
    'health p99 ms',
    'B interact p99 ms',
    'RSS peak +MB (in case)',
  ];
  const notes: string[] = [];
  const lines = rows.map((row) => {
    if (!caseOk(row))
      notes.push(`${notes.length + 1}. \`${row.name}\`: ${row.problems.join('; ')}`);
    return [
      row.name,
      row.route,
      row.status,
      row.code || '–',
      num(row.ms),
      row.expected.replace(/\|/g, ' or '),
      caseOk(row) ? 'yes' : `**no** (${notes.length})`,
      `${num(row.figures.healthP99)}${mark(healthOk(row))}`,
      `${num(row.figures.interactP99)}${mark(interactOk(row))}`,
      `${num(row.figures.rssPeakOverMb)}${mark(rssOk(row))} (${signed(row.figures.rssPeakMb - row.figures.rssStartMb)})`,
    ];
  });
  const out = [header, header.map(() => '---'), ...lines].map(
    (cells) => `| ${cells.join(' | ')} |`,
  );
  return [...out, '', ...notes].join('\n');
}

export function summary(rows: CaseRow[], restarts: number): string {
  const count = (ok: (row: CaseRow) => boolean) => `${rows.filter(ok).length}/${rows.length}`;
  return [
    `${count(caseOk)} cases as expected`,
    `${serverErrors(rows)} × 5xx`,
    `health p99 ≤ ${TARGETS.healthP99Ms} ms in ${count(healthOk)}`,
    `tenant B p99 ≤ ${TARGETS.interactP99Ms} ms in ${count(interactOk)}`,
    `RSS ≤ baseline + ${TARGETS.rssOverMb} MB in ${count(rssOk)}`,
    `server restarts: ${restarts}`,
  ].join(' · ');
}
