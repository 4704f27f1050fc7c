// Chain partial failure (docs/specs.md, "action chaining"): the client stopped at action N+1 of
// a chain. Actions 0..N are done. Skip the failed one if it was `canFail`; retry it (with its
// target re-found by role + name if it re-rendered) together with the rest; or, when the rest
// no longer fits the page, regenerate it (route to action_generation).
import { formatAction, parseAction, type ChainAction, type ParsedAction } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import { checkChainSafety } from '../../engines/chain-safety';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { validateAction } from '../action-check';
import { policyOf } from '../action-policy';
import { logFor } from '../node-context';
import { makePending, remapTarget } from '../pending-action';

export const chainRecovery =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const log = logFor(deps, state, 'chain_recovery');
    const pending = state.pending;
    const page = state.page;
    const chain = pending?.chain;
    if (!pending || !page || !chain) return { pending: null, nextActionReady: false };
    const failedIndex = (page.lastExecutedActionIndex ?? -1) + 1;
    const failed = chain.actions[failedIndex];
    const startAt = failed?.canFail ? failedIndex + 1 : failedIndex;
    const strategy = failed?.canFail ? 'skip' : 'retry';

    const remapped: { text: string; action: ParsedAction }[] = [];
    for (const item of chain.actions.slice(startAt)) {
      const parsed = parseAction(item.action);
      const action = remapTarget(parsed, pending.targets, page) ?? parsed;
      const checked = validateAction(formatAction(action), page, policyOf(state));
      if (!checked.ok) {
        log.info('chain rest no longer fits the page; regenerating', {
          failedIndex,
          reason: checked.reason,
        });
        return { pending: null, nextActionReady: false };
      }
      remapped.push({ text: checked.actionString, action: checked.action });
    }
    const first = remapped[0];
    if (!first) {
      // Only a skippable action failed and nothing remains: the chain is done.
      log.info('skipped the failed optional action; chain complete', { failedIndex });
      return {
        pending: null,
        nextActionReady: false,
        lastVerification: {
          success: true,
          confidence: 0.8,
          reason: `optional action ${failedIndex} skipped`,
          actionSucceeded: true,
          taskCompleted: false,
          goalAchieved: false,
          verificationTier: 1,
          tokensSaved: 0,
        },
      };
    }
    const texts = remapped.map((r) => r.text);
    const items: ChainAction[] = texts.map((action, index) => ({
      action,
      description: chain.actions[startAt + index]?.description ?? action,
      index,
      ...(chain.actions[startAt + index]?.canFail ? { canFail: true } : {}),
    }));
    const useChain = items.length > 1 && checkChainSafety(texts, page.tree).safe;
    log.info('recovered chain', { strategy, failedIndex, remaining: items.length });
    return {
      pending: makePending({
        state,
        page,
        thought: `The chain stopped at action ${failedIndex + 1}; ${strategy === 'skip' ? 'skipping the optional action and continuing' : 'retrying it and the rest'}.`,
        action: first.action,
        chain: useChain ? { actions: items } : null,
        source: 'chain_recovery',
      }),
      nextActionReady: true,
    };
  };
