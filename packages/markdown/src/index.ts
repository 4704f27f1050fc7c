export {
  chunkMarkdownByStructure,
  DEFAULT_MAX_CHUNK_SIZE,
  DEFAULT_OVERLAP_LINES,
  type ChunkOptions,
  type MarkdownChunk,
} from './chunk';
export { fenceFor, longestBacktickRun } from './fence';
