// Streaming extraction end to end (docs/specs.md, "streaming extraction"): the real extension on
// the demo job board, the fake model reading each page through a content snapshot (docs/specs.md,
// "page snapshots") and collecting every card, the server deduplicating across pages and stopping
// at 25; the popup counts the items and its Download CSV button saves them.
import { readFileSync } from 'node:fs';
import { expect, finished, openDemo, startGoal, test, waitForRun } from './support/fixtures';

test('"Extract 25 job listings" collects 25 unique jobs across pages; the popup counts them and exports a 25-row CSV', async ({
  ext,
}) => {
  const { page, tabId } = await openDemo(ext, '/jobs/');
  await expect(page.locator('.job-card').first()).toBeVisible();
  const popup = await startGoal(ext, tabId, 'Extract 25 job listings');

  const run = await waitForRun(ext, tabId, finished, 120_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  expect(run.collected, JSON.stringify(run, null, 2)).toEqual({ job: 25 });
  // It paged: page 1 holds 12 cards, so the 25th unique job was read further on.
  await expect(page).toHaveURL(/page=[23]/);

  const headers = { authorization: `Bearer ${ext.env.apiKey}` };
  const taskId = run.taskId ?? '';
  const listed = (await (
    await fetch(`${ext.env.server}/api/tasks/${taskId}/collected?limit=100`, { headers })
  ).json()) as {
    items: { uniqueKey: string | null; sourceUrl: string | null; data: Record<string, unknown> }[];
  };
  const keys = listed.items.map((i) => i.uniqueKey);
  expect(keys).toHaveLength(25);
  expect(new Set(keys).size).toBe(25); // promoted repeats were skipped, not stored twice
  expect(keys).toContain('job:J-1001');
  // The board's traps (apps/demo-sites jobs.ts): the card without an id is keyed by
  // title@company, and the jobs promoted again at the top of pages 2 and 3 were skipped.
  expect(keys).toContain('night shift nurse@riverside clinic');
  // Skipped duplicates are a count in the run, never one line each in the steps.
  expect(run.duplicatesSkipped ?? 0).toBeGreaterThan(0);
  expect(run.steps.map((s) => s.thought).join('\n')).not.toContain('Duplicate job skipped');
  // J-1012, promoted at the top of page 2, stays the item stored from page 1; J-1022, promoted
  // on page 3, stays the item stored from page 2; page 3 added the last two.
  const sourceOf = (key: string) => listed.items.find((i) => i.uniqueKey === key)?.sourceUrl;
  expect(sourceOf('job:J-1012')).toMatch(/jobs\/(\?page=1)?$/);
  expect(sourceOf('job:J-1022')).toMatch(/page=2/);
  expect(
    listed.items.filter((i) => /page=3/.test(i.sourceUrl ?? '')).map((i) => i.uniqueKey),
  ).toEqual(['job:J-1023', 'job:J-1024']);

  await expect(popup.locator('#collected-count')).toContainText('Collected 25 of 25 items');
  const [download] = await Promise.all([
    popup.waitForEvent('download'),
    popup.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const csv = readFileSync((await download.path()) ?? '', 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toMatch(/^_seq,_type,_sourceUrl,/);
  expect(csv).toHaveLength(26); // header + 25 rows (no field of the board's cards holds a newline)
  expect(csv.filter((row) => row.includes('Night Shift Nurse'))).toHaveLength(1);
});
