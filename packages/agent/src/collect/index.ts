export { inferUniqueKey } from './unique-key';
export {
  CollectError,
  CollectService,
  isCollectError,
  type CollectErrorCode,
  type CollectInput,
  type CollectManyResult,
  type CollectOutcome,
  type CollectServiceOptions,
  type CollectStatus,
} from './collect-service';
export {
  TaskEventHub,
  TaskEventHubFullError,
  isTaskEventHubFullError,
  type TaskEventHubOptions,
  type TaskEventListener,
} from './event-hub';
export { collectedSummaryLine, collectedTotal, limitReached } from './summary';
export { toCollectedItemEntry, isInferredKey, UNKEYED_PREFIX } from './collected-entry';
export { collectedItemsToCsv, csvColumns, CSV_META_COLUMNS, type CsvItem } from './csv';
export { CollectOutputField, COLLECT_PROMPT_RULES } from './model-output';
