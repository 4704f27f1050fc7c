// @tandem/page: runs inside web pages (content script or injected bundle).
export { captureTree, CAPTURE_DEFAULTS } from './capture/tree';
export {
  capturePageState,
  captureSemantic,
  captureSkeleton,
  captureFullDom,
} from './capture/modes';
export type { PageState, PageStateOptions } from './capture/modes';
export { ARIA_ROLE_CODES } from './capture/roles';
export { MASKED_VALUE } from './capture/states';
export { LLM_ID_ATTRIBUTE } from './dom/elements';
export { waitForStability, STABILITY_DEFAULTS } from './stability/wait';
export type { StabilityOptions, StabilityResult } from './stability/wait';
export { observeAction, startObservation } from './stability/observe';
export type { Observation, ObservedAction } from './stability/observe';
export {
  installNetworkTracker,
  NETWORK_EVENT,
  networkMonitor as startNetworkMonitor,
} from './stability/network';
export { execute } from './execute/execute';
export { inspectTargets } from './execute/inspect';
export type { TargetFacts } from './execute/inspect';
export type { ExecuteOptions } from './execute/execute';
export type { ExecuteErrorCode, ExecuteResult } from './execute/result';
export type { CaptureOptions, CaptureResult, SemanticNode } from './types';
export { snapshot, snapshotDocument, snapshotLinks, resolveXpath } from './snapshot/snapshot';
export type { SnapshotEnvironment, SnapshotOptions } from './snapshot/snapshot';
export { SelectorError } from './snapshot/scope';
export { isGeneratedId, isUtilityClass } from './snapshot/xpath-tokens';
