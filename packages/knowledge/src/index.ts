// Skills: what the agent and the server load. Ingestion (document extractors, main-content
// extraction) is its own entry, `@tandem/knowledge/ingestion`: its native modules (canvas for
// scanned PDF pages, OCR) must not be pulled into every bundle that uses skills.
export {
  goalSimilarity,
  goalWords,
  skillHintText,
  SkillsService,
  type LearnInput,
  type SkillHint,
  type SkillsOptions,
} from './skills/skills-service';
