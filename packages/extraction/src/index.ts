export { ExtractionAggregator, aggregateResults } from './aggregator';
export { parseContent } from './content';
export { classifyError } from './errors';
export type {
  ExtractionCallContext,
  ExtractionLlm,
  ExtractionLlmRequest,
  ExtractionLlmResult,
} from './llm';
export { dedupe, deepMerge, mergeChunkData } from './merge';
export {
  inlinePageReader,
  learnPage,
  readPage,
  type PageLearned,
  type PageLink,
  type PageLearnRequest,
  type PageRead,
  type PageReader,
  type PageReadRequest,
} from './page-reader';
export { leadsOn, pagerMoveOf, type OnwardAsk, type PagerMove } from './page-onward';
export { ExtractionInputError } from './plan';
export { checkOutputSchema, schemaHash, schemaFields, unsupportedFeatures } from './schema';
export type { CheckedSchema } from './schema';
export type {
  DataExamples,
  DataPage,
  DataReplay,
  LearnedStrategy,
  ReplayedStrategy,
} from './data-strategy';
export {
  ExtractionService,
  summaryLine,
  toResult,
  type ExtractionServiceDeps,
  type RunExtractionInput,
  type RunExtractionOutput,
} from './service';
export { ExtractionCache } from './strategy-cache';
export { DEFAULT_EXTRACTION_CONFIG, ExtractionSubAgent, type ExtractionConfig } from './sub-agent';
export { globToRegExp, matchesUrl, urlPatternFor } from './url-pattern';
export { extractionSystem } from './prompt';
export { isJsonObject } from './json';
