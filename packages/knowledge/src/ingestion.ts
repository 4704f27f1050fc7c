export {
  extractMainContent,
  type MainContent,
  type MainContentOptions,
} from './content/main-content';
export { detectType } from './extractors/detect';
export {
  extractDocument,
  type ExtractOptions,
  type FormatHandler,
  type HandlerResult,
  type InjectedKind,
} from './extractors/extract';
export { ocrImage } from './extractors/ocr';
export {
  gotenbergHandler,
  inspectOfficeArchive,
  OfficeConversionError,
  type GotenbergOptions,
} from './extractors/office';
export { ParseError } from './extractors/text-formats';
export { transcriptionHandlers, type Transcribe } from './extractors/transcribe';
export {
  UnsupportedFormatError,
  type DetectedType,
  type DocumentKind,
  type ExtractedDocument,
  type ExtractedPage,
  type ExtractInput,
} from './extractors/types';
export {
  chunkForRetrieval,
  splitSections,
  type RetrievalChunk,
  type RetrievalChunkOptions,
} from './ingestion/chunk';
export {
  contentHash,
  KnowledgeIngestion,
  QuotaExceededError,
  type IngestionDeps,
  type KnowledgeQuotas,
  type SourceContent,
  type StoredSource,
} from './ingestion/service';
export {
  inlineParsers,
  type ContentParsers,
  type DocumentForRetrieval,
  type DocumentInput,
  type PageInput,
} from './ingestion/parsers';
export {
  ingestCrawledPage,
  ingestPageContent,
  type CrawledPageInput,
  type PageDeps,
} from './ingestion/web';
export {
  checkCrawlUrl,
  CrawlRefusedError,
  CRAWL_DEFAULTS,
  runCrawl,
  type CrawlDeps,
  type CrawledPage,
  type CrawlOptions,
  type CrawlUrlPolicy,
  type PageOutcome,
} from './crawler';
