import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createScriptedLlm, type ScriptedStep } from '@tandem/llm/testing';
import { domHash, semanticSkeleton } from '../../page/page-state';
import { costOf, nodeDeps, pageOf, stateWith } from '../../testing/state';
import { DIRECT_ACTION_ATTEMPTS, directAction } from './node';
import { directActionSystem } from './prompt';

const URL = 'https://app.example/inbox';
const tree: SemanticNodeV3[] = [
  { i: 'logout', r: 'btn', n: 'Logout' },
  { i: 'del-1', r: 'link', n: 'Delete' },
  { i: 'del-2', r: 'link', n: 'Delete' },
  { i: 'search', r: 'inp', n: 'Search mail' },
  { i: 'export', r: 'btn', n: 'Export', occ: true },
];
const page = pageOf(tree, { url: URL });
const simple = (query: string) => stateWith({ query, complexity: 'SIMPLE', page });

const modelAnswer = (action: string, thought = 'The menu holds Export'): ScriptedStep => ({
  node: 'direct_action',
  output: { thought, action },
  usage: { inputTokens: 80, outputTokens: 10 },
});

describe('direct_action: deterministic resolution', () => {
  it('resolves a command that names its target, with zero model calls', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const update = await directAction(nodeDeps({ llm }))(simple('click Logout'));

    llm.assertDone();
    expect(llm.calls).toHaveLength(0);
    expect(update).toEqual({
      pending: {
        stepIndex: 0,
        thought: 'Click btn "Logout" (id logout).',
        action: { name: 'click', args: { id: 'logout' } },
        chain: null,
        expectedOutcome: null,
        beforeState: { url: URL, domHash: domHash(tree), semanticSkeleton: semanticSkeleton(tree) },
        taskActionId: null,
        source: 'direct_action',
        targets: [expect.objectContaining({ id: 'logout', role: 'btn', name: 'Logout' }) as object],
      },
    });
  });

  it('resolves typing into a named field and commands that name no element', async () => {
    const deps = nodeDeps();
    expect(await directAction(deps)(simple('type invoices into Search mail'))).toMatchObject({
      pending: { action: { name: 'setValue', args: { id: 'search', text: 'invoices' } } },
    });
    expect(await directAction(deps)(simple('press Enter'))).toMatchObject({
      pending: { action: { name: 'press', args: { key: 'Enter' } }, targets: [] },
    });
  });
});

describe('direct_action: without a model', () => {
  it('asks the user which element was meant when two match equally', async () => {
    const update = await directAction(nodeDeps())(simple('click Delete'));
    const reason =
      'several elements match "Delete": link "Delete" (id del-1), link "Delete" (id del-2)';
    expect(update).toEqual({
      outcome: {
        kind: 'ask_user',
        message: `Which one did you mean? ${reason}.`,
        missingInformation: ['which element'],
        thought: reason,
      },
      question: { askedBy: 'direct_action', message: `Which one did you mean? ${reason}.` },
      questionsAsked: 1,
    });
  });

  it('sends fail() when nothing matches, saying why (a covered element is not used)', async () => {
    const update = await directAction(nodeDeps())(simple('click Export'));
    const reason =
      'no element named "Export" on the page ("Export" exists but is covered by another element)';
    expect(update).toEqual({
      pending: expect.objectContaining({
        thought: `I could not do "click Export": ${reason}.`,
        action: { name: 'fail', args: { reason } },
        source: 'direct_action',
        targets: [],
      }) as object,
    });
  });

  it('sends fail() when the query is not a single command', async () => {
    const update = await directAction(nodeDeps())(simple('what is going on here'));
    expect(update).toMatchObject({
      pending: { action: { name: 'fail', args: { reason: 'not a single command' } } },
    });
  });
});

describe('direct_action: with a model', () => {
  it("asks the model when the tree finds nothing, with the resolver's reason as a hint", async () => {
    const llm = createScriptedLlm([modelAnswer('click("logout")', 'Sign out is Logout')], {
      zeroLatency: true,
    });
    const update = await directAction(nodeDeps({ llm }))(simple('click Sign out'));

    llm.assertDone();
    const [call] = llm.callsFor('direct_action');
    expect(call).toMatchObject({ actionType: 'DIRECT_ACTION', system: directActionSystem });
    expect(call?.prompt).toContain('Command: click Sign out');
    expect(call?.prompt).toContain(
      'Note:\n<page_content untrusted="true">\nno element named "Sign out" on the page',
    );
    expect(update).toEqual({
      tokens: { input: 80, output: 10, saved: 0, calls: 1, costMicroUsd: costOf(80, 10) },
      pending: expect.objectContaining({
        thought: 'Sign out is Logout',
        action: { name: 'click', args: { id: 'logout' } },
        source: 'direct_action',
        targets: [expect.objectContaining({ id: 'logout', role: 'btn', name: 'Logout' }) as object],
      }) as object,
    });
  });

  it('asks the model to choose when the tree is ambiguous', async () => {
    const llm = createScriptedLlm([modelAnswer('click("del-2")', 'The second one')], {
      zeroLatency: true,
    });
    const update = await directAction(nodeDeps({ llm }))(simple('click Delete'));
    expect(llm.callsFor('direct_action')[0]?.prompt).toContain(
      'Note:\n<page_content untrusted="true">\nseveral elements match "Delete"',
    );
    expect(update).toMatchObject({ pending: { action: { name: 'click', args: { id: 'del-2' } } } });
  });

  it('retries once with the rejection explained', async () => {
    const llm = createScriptedLlm(
      [modelAnswer('click("export")'), modelAnswer('click("logout")')],
      { zeroLatency: true },
    );
    const update = await directAction(nodeDeps({ llm }))(simple('click Sign out'));

    llm.assertDone();
    expect(llm.callsFor('direct_action')[1]?.prompt).toContain(
      'Your previous answer click("export") was rejected: element "Export" is covered by another element.',
    );
    expect(update).toMatchObject({
      tokens: { input: 160, output: 20, calls: 2, costMicroUsd: 2 * costOf(80, 10) },
      pending: { action: { name: 'click', args: { id: 'logout' } } },
    });
  });

  it(`refuses with INVALID_ACTION and fails the task after ${DIRECT_ACTION_ATTEMPTS} invalid answers`, async () => {
    expect(DIRECT_ACTION_ATTEMPTS).toBe(2);
    const llm = createScriptedLlm([modelAnswer('click("nope")'), modelAnswer('click("nope-2")')], {
      zeroLatency: true,
    });
    const update = await directAction(nodeDeps({ llm }))(simple('click Sign out'));

    llm.assertDone();
    expect(update).toEqual({
      tokens: { input: 160, output: 20, saved: 0, calls: 2, costMicroUsd: 2 * costOf(80, 10) },
      outcome: {
        kind: 'refused',
        code: 'INVALID_ACTION',
        message:
          'The model produced no valid action: Your previous answer click("nope-2") was rejected: ' +
          'element id "nope-2" is not on the current page.',
        failTask: true,
      },
    });
  });
});
