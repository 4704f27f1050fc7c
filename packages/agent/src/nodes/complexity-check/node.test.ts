import { describe, expect, it } from 'vitest';
import { createScriptedLlm } from '@tandem/llm/testing';
import { LlmNotConfiguredError } from '@tandem/llm';
import { nodeDeps, pageOf, stateWith } from '../../testing/state';
import { complexityCheck } from './node';

const task = (query: string) =>
  stateWith({ query, page: pageOf([{ i: 'logout', r: 'btn', n: 'Logout' }]) });

describe('complexity_check', () => {
  it('routes a single command on a named target to SIMPLE, with no model call', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const update = await complexityCheck(nodeDeps({ llm }))(task('click Logout'));
    llm.assertDone();
    expect(llm.calls).toHaveLength(0);
    expect(update).toEqual({
      complexity: 'SIMPLE',
      complexityReason: 'single click command on a named target',
    });
  });

  it('routes a multi-step goal to COMPLEX when a model is configured', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const update = await complexityCheck(nodeDeps({ llm }))(task('Add a contact named Jas Doe'));
    llm.assertDone();
    expect(update).toEqual({
      complexity: 'COMPLEX',
      complexityReason: 'goal implies several steps or a form',
    });
  });

  it('SIMPLE commands need no model', async () => {
    const update = await complexityCheck(nodeDeps())(task('type Jas into First name'));
    expect(update).toEqual({
      complexity: 'SIMPLE',
      complexityReason: 'single type command on a named target',
    });
  });

  it('refuses a COMPLEX goal with LLM_NOT_CONFIGURED when no model is configured, without failing a task', async () => {
    const update = await complexityCheck(nodeDeps())(task('click Save and then click Close'));
    expect(update).toEqual({
      complexity: 'COMPLEX',
      complexityReason: 'not a recognised single-action command',
      outcome: {
        kind: 'refused',
        code: 'LLM_NOT_CONFIGURED',
        message: expect.stringContaining(new LlmNotConfiguredError().message),
        failTask: false,
      },
    });
    // What works without a model, in words that hold on any page.
    expect(update.outcome).toMatchObject({ message: /names one element on the page/ });
  });
});
