// The answers every scripted model gives the same way, defined once and typed by the nodes'
// own output schemas, so a changed schema fails the typecheck here rather than at run time in
// one of the fakes (e2e, bench tasks, soak, attacks).
import type { ContextAnalysisOutput } from '../nodes/context-analysis/prompt';
import type { z } from 'zod';
import type { CorrectionOutput } from '../nodes/correction/prompt';
import type { CriticOutput } from '../nodes/critic/prompt';

/** Context analysis' answer when the page and the goal hold everything the task needs. */
export const PAGE_IS_ENOUGH = {
  source: 'PAGE',
  requiredSources: ['PAGE'],
  missingInformation: [],
  searchQuery: null,
  reasoning: 'The goal states every value needed.',
} as const satisfies ContextAnalysisOutput;

/** The critic's answer in scenarios whose actions are right. */
export const APPROVE = {
  approve: true,
  reason: 'The action fits the goal and the page.',
  evidence: 'The page shows the expected state.',
} as const satisfies CriticOutput;

/** Correction's answer when waiting is all a scenario needs. */
export const RETRY_WITH_DELAY = {
  strategy: 'RETRY_WITH_DELAY',
  action: 'wait(1)',
  reason: 'Give the page a moment.',
} as const satisfies z.infer<typeof CorrectionOutput>;
