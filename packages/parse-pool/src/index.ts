export type { ContentParsers } from '@tandem/knowledge/ingestion';
export { FairQueue, QueueFullError, type FairQueueOptions } from './fair-queue';
export type { JobName, Jobs } from './jobs';
export { ParsePool, type ParsePoolOptions } from './pool';
export { poolPageReader, poolParsers } from './adapters';
