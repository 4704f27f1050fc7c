// A question and its answer end to end: the goal lacks a value only the user knows,
// so the agent asks (context analysis: ASK_USER); the popup shows the question with an answer
// field, the user types the answer there, and the SAME task and session go on with it: the
// model reads it in the next prompt and the patient is saved with it.
import { AdminTaskList } from '@tandem/contracts';
import { fakeGemini } from './support/fake-gemini-control';
import { demoPatients, isJasPatel, openPanel, serverTask, shoot } from './support/flow';
import { expect, finished, openDemo, startGoal, test, waitForRun } from './support/fixtures';

const GOAL = 'Add a new patient named Jas Patel with her date of birth';

test('a question is answered in the popup and the same task goes on with the answer', async ({
  ext,
}) => {
  const fake = fakeGemini(ext.env.gemini);
  const callsBefore = (await fake.calls()).length;
  const { page, tabId } = await openDemo(ext, '/emr/');
  const popup = await startGoal(ext, tabId, GOAL);

  const asked = await waitForRun(ext, tabId, (run) => run.status === 'needs_input');
  expect(asked.question).toContain('date of birth');
  expect(asked.taskId).toBeTruthy();
  expect(asked.sessionId).toBeTruthy();
  await expect(popup.locator('#status')).toHaveText('Waiting for your answer');
  await expect(popup.locator('#question-text')).toHaveText(asked.question ?? '');
  const field = popup.getByRole('textbox', { name: 'Your answer' });
  await expect(field).toBeFocused();
  await shoot(popup, 'question', 'popup');
  const panel = await openPanel(ext, tabId);
  await expect(panel.locator('#question-text')).toHaveText(asked.question ?? '');
  await shoot(panel, 'question', 'panel');
  await panel.close();

  // The analysis of the answer (which plans in the same call) waits, so the screenshots show
  // the task at work again; every step after it is planned and resolved without a model.
  const held = await fake.hold('context_planning', GOAL);
  await field.fill('12 March 1990');
  await popup.getByRole('button', { name: 'Send' }).click();
  await held.reached();
  await expect(popup.locator('#status')).toHaveText('Working…');
  await expect(popup.locator('#question')).toBeHidden();
  await shoot(popup, 'running', 'popup');
  const running = await openPanel(ext, tabId);
  await expect(running.locator('#status')).toHaveText('Working…');
  await shoot(running, 'running', 'panel');
  await held.release();

  const run = await waitForRun(ext, tabId, finished, 90_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  // The same task and session, not a new one started from the answer.
  expect(run.taskId).toBe(asked.taskId);
  expect(run.sessionId).toBe(asked.sessionId);
  const server = { url: ext.env.server, apiKey: ext.env.apiKey };
  const task = await serverTask(server, asked.taskId ?? '');
  expect(task.task).toMatchObject({ status: 'completed', sessionId: asked.sessionId });
  const res = await fetch(`${ext.env.server}/api/admin/tasks?limit=200`, {
    headers: { authorization: `Bearer ${ext.env.apiKey}` },
  });
  const tasks = AdminTaskList.parse(await res.json()).items.filter((t) => t.query === GOAL);
  expect(tasks.map((t) => t.id)).toEqual([asked.taskId]);

  // The model saw the answer: the context analysis after it (which writes the plan in the
  // same call) reads it in the conversation.
  const calls = (await fake.calls()).slice(callsBefore).filter((c) => c.goal === GOAL);
  const analyses = calls.filter((c) => c.node === 'context_planning');
  expect(analyses).toHaveLength(2);
  expect(analyses[0]?.prompt).not.toContain('12 March 1990');
  expect(analyses[1]?.prompt).toContain('User: 12 March 1990');
  expect(analyses[1]?.prompt).toContain('The user just answered your question');
  expect(calls.filter((c) => c.node === 'planning')).toHaveLength(0);

  // ... and the patient was saved with it, once.
  await expect(page.getByRole('status')).toContainText('saved successfully');
  expect((await demoPatients(ext)).filter(isJasPatel)).toEqual([
    expect.objectContaining({ dateOfBirth: '1990-03-12' }),
  ]);
  await expect(popup.locator('#status')).toHaveText('Done.');
  await expect(popup.locator('#question')).toBeHidden();
  await expect(popup.locator('#result-text')).toHaveText(
    'Jas Patel (born 03/12/1990) was added as a new patient.',
  );
  await shoot(popup, 'done', 'popup');
  await expect(running.locator('#status')).toHaveText('Done.');
  await shoot(running, 'done', 'panel');
});

test.afterEach(async ({ ext }) => {
  await fakeGemini(ext.env.gemini).releaseAll();
});
