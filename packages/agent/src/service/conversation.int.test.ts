// Conversation (docs/specs.md, "session" and "reasoning before planning"): a question pauses the
// task and the answer continues the same task in the same session, with the answer in the next
// prompt; a follow-up goal in the same session reads the earlier one (context analysis' MEMORY
// source).
import type { SemanticNodeV3 } from '@tandem/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedStep } from '@tandem/llm/testing';
import { createTestAgent, pageRequest, planStep, type TestAgent } from '../testing/harness';

const EMR = 'https://emr.example/patients/new';
const form = (saved = false): SemanticNodeV3[] => [
  { i: '10', r: 'inp', n: 'Date of birth', v: saved ? '1990-04-02' : '' },
  { i: '12', r: 'btn', n: 'Save' },
  ...(saved ? [{ i: '13', r: 'status', n: 'Patient saved successfully' }] : []),
];

const context = (source: 'ASK_USER' | 'PAGE' | 'MEMORY', missing: string[] = []): ScriptedStep => ({
  node: 'context_analysis',
  output: {
    source,
    requiredSources: [source],
    missingInformation: missing,
    searchQuery: null,
    reasoning: source === 'ASK_USER' ? 'Only the user knows the date of birth.' : 'Enough.',
  },
});

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.store.close();
  agent = undefined;
});

describe('a question and its answer', () => {
  it('pause and continue the same task in the same session, with the answer in the prompts', async () => {
    agent = await createTestAgent({
      steps: [
        context('ASK_USER', ['date of birth']),
        context('PAGE'),
        planStep('Add Jas with her date of birth', ["Click 'Save'"]),
        // The plan's last step, refined without a model, is confirmed by the page's success
        // message: no outcome or verification call; the plan wrote no answer, the model does.
        { node: 'finalize', output: { answer: 'Jas was added, born 2 April 1990.' } },
      ],
    });
    const asked = await agent.interact(
      pageRequest(EMR, form(), { query: 'Add the patient Jas with her date of birth' }),
    );
    if (!asked.needsUserInput || !asked.taskId) throw new Error('expected a question');
    expect(asked.message).toMatch(/date of birth/);

    const next = await agent.act(
      pageRequest(EMR, form(), {
        taskId: asked.taskId,
        sessionId: asked.sessionId,
        answer: '2 April 1990',
      }),
    );
    expect(next).toMatchObject({ taskId: asked.taskId, sessionId: asked.sessionId });
    expect(next.action).toBe('click("12")');

    // The resumed context analysis read the question and the answer.
    const again = agent.scripted?.callsFor('context_analysis')[1]?.prompt ?? '';
    expect(again).toContain('The user just answered your question');
    expect(again).toContain('2 April 1990');
    expect(again).toContain(
      'Agent asked: I need the following information to continue: date of birth.',
    );
    expect(agent.scripted?.callsFor('planning')[0]?.prompt).toContain('User: 2 April 1990');

    const done = await agent.act(
      pageRequest(EMR, form(true), {
        taskId: asked.taskId,
        sessionId: asked.sessionId,
        lastActionStatus: 'success',
        success_messages: ['Patient saved successfully'],
      }),
    );
    expect(done).toMatchObject({
      status: 'completed',
      result: 'Jas was added, born 2 April 1990.',
    });

    const messages = await agent.store.messages.list(agent.caller.tenantId, asked.sessionId);
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Add the patient Jas with her date of birth'],
      ['assistant', 'I need the following information to continue: date of birth.'],
      ['user', '2 April 1990'],
      ['assistant', next.thought],
      ['assistant', 'Jas was added, born 2 April 1990.'],
    ]);
    agent.scripted?.assertDone();
  });

  it('a follow-up goal in the same session reads the earlier goal and its answer', async () => {
    agent = await createTestAgent({
      steps: [
        context('PAGE'),
        planStep('Add Jas', ["Click 'Save'"]),
        {
          node: 'outcome_prediction',
          output: { description: 'Saved', urlShouldChange: false, nextGoal: null },
        },
        {
          node: 'verification',
          output: {
            action_succeeded: true,
            task_completed: true,
            confidence: 0.9,
            reason: 'saved',
          },
        },
        { node: 'finalize', output: { answer: 'Jas Patel was added.' } },
        context('MEMORY'),
        planStep('Add John Smith the same way', ["Click 'Save'"]),
        {
          node: 'outcome_prediction',
          output: { description: 'Saved', urlShouldChange: false, nextGoal: null },
        },
      ],
    });
    const first = await agent.act(pageRequest(EMR, form(), { query: 'Add the patient Jas Patel' }));
    await agent.act(
      pageRequest(EMR, form(true), {
        taskId: first.taskId,
        sessionId: first.sessionId,
        lastActionStatus: 'success',
      }),
    );
    const followUp = await agent.act(
      pageRequest(EMR, form(), {
        query: 'now do the same for John Smith',
        sessionId: first.sessionId,
      }),
    );
    expect(followUp.taskId).not.toBe(first.taskId);
    expect(followUp.sessionId).toBe(first.sessionId);
    const memory = agent.scripted?.callsFor('context_analysis')[1]?.prompt ?? '';
    expect(memory).toContain('User: Add the patient Jas Patel');
    expect(memory).toContain('Agent finished: Jas Patel was added.');
    // Step thoughts are the task's log, not the conversation.
    expect(memory).not.toContain(first.thought);
    expect(memory).toContain('User goal: now do the same for John Smith');
  });

  it('a command that matched two elements is resolved with the answer, without a model', async () => {
    agent = await createTestAgent({ unconfigured: true });
    const exports: SemanticNodeV3[] = [
      { i: '1', r: 'btn', n: 'Export CSV' },
      { i: '2', r: 'btn', n: 'Export PDF' },
    ];
    const asked = await agent.interact(pageRequest(EMR, exports, { query: 'click Export' }));
    if (!asked.needsUserInput || !asked.taskId) throw new Error('expected a question');
    expect(asked.message).toMatch(/^Which one did you mean\?/);
    const next = await agent.act(
      pageRequest(EMR, exports, {
        taskId: asked.taskId,
        sessionId: asked.sessionId,
        answer: 'Export PDF',
      }),
    );
    expect(next).toMatchObject({ taskId: asked.taskId, action: 'click("2")' });
    expect(next.actionSummary).toBe('Clicked “Export PDF”');
  });

  it('an answer to a task that asked nothing, or a step without the awaited answer, is a 409', async () => {
    agent = await createTestAgent({ unconfigured: true });
    const started = await agent.act(pageRequest(EMR, form(), { query: 'click Save' }));
    await expect(
      agent.interact(
        pageRequest(EMR, form(), {
          taskId: started.taskId,
          sessionId: started.sessionId,
          answer: 'x',
        }),
      ),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This task is not waiting for an answer.',
    });
  });
});
