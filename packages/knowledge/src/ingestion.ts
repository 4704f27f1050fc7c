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
