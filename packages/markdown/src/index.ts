export {
  chunkMarkdownByStructure,
  DEFAULT_MAX_CHUNK_SIZE,
  DEFAULT_OVERLAP_LINES,
  type ChunkOptions,
  type MarkdownChunk,
} from './chunk';
export { fenceFor, longestBacktickRun } from './fence';
export {
  annotateDom,
  cleanAddedText,
  compactDatetime,
  escapeAddedText,
  findAdditions,
  renderAddition,
  MARKER_MODE,
  MARKER_TAG,
  MAX_ADDED_CHARS,
  type AccessibleTextAdapter,
  type AccessibleTextOptions,
  type Addition,
  type AdditionMode,
  type DomAnnotateOptions,
} from './accessible-text';
