export {
  goalSimilarity,
  goalWords,
  skillHintText,
  SkillsService,
  type LearnInput,
  type SkillHint,
  type SkillsOptions,
} from './skills/skills-service';
