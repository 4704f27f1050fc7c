// Skills, retrieval and embeddings: what the agent and the server load on every request.
// Ingestion (document extractors, main-content extraction, the crawler) is its own entry,
// `@tandem/knowledge/ingestion`: its native modules (canvas for scanned PDF pages, OCR) must
// not be pulled into every bundle that uses skills or RAG.
export {
  goalSimilarity,
  goalWords,
  skillHintText,
  SkillsService,
  type LearnInput,
  type SkillHint,
  type SkillsOptions,
} from './skills/skills-service';
export {
  createKnowledgeRetriever,
  fuse,
  FRESH_PHASE_BOOST,
  RRF_K,
  type KnowledgeRetriever,
  type KnowledgeRetrieverDeps,
  type Retrieval,
  type RetrievedChunk,
  type RetrieveInput,
} from './retrieval/hybrid';
export {
  hostMatchesDomain,
  hostOfUrl,
  isHostAllowed,
  pageDomains,
  readableDomains,
} from './retrieval/domains';
