// Replay without the model (docs/specs.md, "the strategy cache"): when an extraction with a schema
// succeeds, learn where each field came from on the page; on a page of the same shape, read the
// fields from there, and use the model only when the result fails the schema or the spot check.
export { applyRecipe } from './apply';
export { learnRecipe } from './learn';
export type { FieldRule, ReplayRecipe } from './recipe';
export { FieldRuleSchema, readRecipe, ReplayRecipeSchema } from './recipe';
export { spotCheck, spotCheckWithEvidence } from './spot-check';
export type { SpotCheckOptions } from './spot-check';
