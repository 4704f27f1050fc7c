// What the scripted models outside this package (e2e, benches) need from the agent, in one
// light entry (no graph, no store): which node a call is from, the prompt readers that sit
// beside the prompt builders, and the answers they share.
export { nodeOfSystem } from './node-of-system';
export { elementsIn, named, usable, type Element } from '../page/read-tree';
export { historyOf, type History } from '../nodes/read-history';
export {
  goalOf,
  readActionPrompt,
  sectionAfter,
  type ActionPrompt,
} from '../nodes/action-generation/read-prompt';
export { APPROVE, PAGE_IS_ENOUGH, RETRY_WITH_DELAY } from './scripted-answers';
