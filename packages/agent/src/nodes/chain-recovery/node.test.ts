import { parseAction, type ChainAction, type SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { PageState } from '../../page/page-state';
import type { PendingAction } from '../../state';
import { nodeDeps, pageOf, pendingOf, pendingOn, planOf, stateWith } from '../../testing/state';
import { targetsOf } from '../pending-action';
import { chainRecovery } from './node';

const URL = 'https://crm.example/contacts/new';
const form: SemanticNodeV3[] = [
  { i: 'first', r: 'inp', n: 'First name' },
  { i: 'last', r: 'inp', n: 'Last name' },
  { i: 'email', r: 'inp', n: 'Email' },
  { i: 'save', r: 'btn', n: 'Save' },
];
const before = pageOf(form, { url: URL });

type Item = Omit<ChainAction, 'index'>;
const FIRST: Item = { action: 'setValue("first", "Jas")', description: 'First name' };
const LAST: Item = { action: 'setValue("last", "Doe")', description: 'Last name' };
const EMAIL: Item = { action: 'setValue("email", "jas@example.com")', description: 'Email' };

/** A chain sent on `before`, as action_generation builds it. */
function chainOf(items: Item[]): PendingAction {
  const [head] = items;
  if (!head) throw new Error('a chain has actions');
  return {
    ...pendingOn(head.action, before),
    chain: {
      actions: items.map((item, index) => ({ ...item, index })),
      metadata: { totalActions: items.length, safeToChain: true },
    },
    targets: targetsOf(
      items.map((item) => parseAction(item.action)),
      before,
    ),
  };
}

/** The client ran the chain up to `lastExecuted` on `tree` and stopped. */
const stoppedAt = (lastExecuted: number, tree = form): PageState =>
  pageOf(tree, {
    url: URL,
    lastExecutedActionIndex: lastExecuted,
    lastActionStatus: 'failure',
    chainActionError: 'element is not editable',
  });

const recovering = (pending: PendingAction, page: PageState) =>
  stateWith({
    complexity: 'COMPLEX',
    plan: planOf(['Fill in the contact', 'Click Save']),
    pending,
    page,
  });

describe('chain_recovery', () => {
  const recover = chainRecovery(nodeDeps());

  it('retries the failed action and the rest as a chain, with a new thought', async () => {
    const update = await recover(recovering(chainOf([FIRST, LAST, EMAIL]), stoppedAt(0)));
    expect(update).toEqual({
      pending: {
        stepIndex: 0,
        thought: 'The chain stopped at action 2; retrying it and the rest.',
        action: { name: 'setValue', args: { id: 'last', text: 'Doe' } },
        chain: {
          actions: [
            { ...LAST, index: 0 },
            { ...EMAIL, index: 1 },
          ],
          metadata: { totalActions: 2, safeToChain: true, estimatedDuration: 1200 },
        },
        expectedOutcome: null,
        beforeState: expect.objectContaining({ url: URL }) as object,
        taskActionId: null,
        source: 'chain_recovery',
        targets: [
          expect.objectContaining({ id: 'last', role: 'inp', name: 'Last name' }) as object,
          expect.objectContaining({ id: 'email', role: 'inp', name: 'Email' }) as object,
        ],
      },
      nextActionReady: true,
    });
  });

  it('skips a failed optional (canFail) action and sends what remains', async () => {
    const pending = chainOf([FIRST, { ...LAST, canFail: true }, EMAIL]);
    const update = await recover(recovering(pending, stoppedAt(0)));
    expect(update).toMatchObject({
      pending: {
        thought: 'The chain stopped at action 2; skipping the optional action and continuing.',
        action: { name: 'setValue', args: { id: 'email', text: 'jas@example.com' } },
        // One action left: it goes alone.
        chain: null,
        source: 'chain_recovery',
      },
      nextActionReady: true,
    });
  });

  it('when only an optional last action failed, the chain counts as done', async () => {
    const pending = chainOf([FIRST, { ...LAST, canFail: true }]);
    const update = await recover(recovering(pending, stoppedAt(0)));
    expect(update).toEqual({
      pending: null,
      nextActionReady: false,
      lastVerification: {
        success: true,
        confidence: 0.8,
        reason: 'optional action 1 skipped',
        actionSucceeded: true,
        taskCompleted: false,
        goalAchieved: false,
        verificationTier: 1,
        tokensSaved: 0,
      },
    });
  });

  it('re-finds targets that re-rendered under new ids', async () => {
    const rerendered: SemanticNodeV3[] = [
      { i: 'first', r: 'inp', n: 'First name' },
      { i: 'last-2', r: 'inp', n: 'Last name' },
      { i: 'email-2', r: 'inp', n: 'Email' },
      { i: 'save', r: 'btn', n: 'Save' },
    ];
    const update = await recover(
      recovering(chainOf([FIRST, LAST, EMAIL]), stoppedAt(0, rerendered)),
    );
    expect(update).toMatchObject({
      pending: {
        action: { name: 'setValue', args: { id: 'last-2', text: 'Doe' } },
        chain: {
          actions: [
            { action: 'setValue("last-2", "Doe")', description: 'Last name', index: 0 },
            { action: 'setValue("email-2", "jas@example.com")', description: 'Email', index: 1 },
          ],
        },
      },
      nextActionReady: true,
    });
  });

  it('regenerates (action_generation) when the rest no longer fits the page', async () => {
    const gone = form.filter((n) => n.i !== 'email');
    const update = await recover(recovering(chainOf([FIRST, LAST, EMAIL]), stoppedAt(0, gone)));
    expect(update).toEqual({ pending: null, nextActionReady: false });
  });

  it('sends only the first remaining action when the rest is no longer safe to chain', async () => {
    // A button now separates the two fields: they are no longer one form group.
    const split: SemanticNodeV3[] = [
      { i: 'first', r: 'inp', n: 'First name' },
      { i: 'last', r: 'inp', n: 'Last name' },
      { i: 'more', r: 'btn', n: 'More fields' },
      { i: 'email', r: 'inp', n: 'Email' },
    ];
    const update = await recover(recovering(chainOf([FIRST, LAST, EMAIL]), stoppedAt(0, split)));
    expect(update).toMatchObject({
      pending: { action: { name: 'setValue', args: { id: 'last', text: 'Doe' } }, chain: null },
      nextActionReady: true,
    });
  });

  it('has nothing to recover without a chain in flight', async () => {
    expect(await recover(recovering(pendingOf('click("save")'), stoppedAt(0)))).toEqual({
      pending: null,
      nextActionReady: false,
    });
    expect(await recover(stateWith({ page: stoppedAt(0) }))).toEqual({
      pending: null,
      nextActionReady: false,
    });
  });
});
