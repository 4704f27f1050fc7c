export { answerFromPrompt, contentOf, schemaOf } from './read-content';
export { sentHtml, sentLinks } from './sent-html';
export {
  scriptedExtractionLlm,
  type ScriptedCall,
  type ScriptedExtractionLlm,
  type ScriptedFault,
} from './scripted-extraction-llm';
export {
  catalogPageHtml,
  formatPrice,
  priceTableHtml,
  productListSchema,
  productCard,
  testProduct,
  type TestProduct,
} from './catalog-html';
export {
  adversarialFigures,
  formatFigures as formatAdversarialFigures,
  summaryLine as adversarialSummaryLine,
  type KindFigures,
} from './adversarial-figures';
export { answerKnownItems, knownItemsModel } from './adversarial-model';
export {
  formatLocalePrice,
  VARIATION_KINDS,
  VARIATIONS,
  type AdversarialScenario,
  type GeneratedPage,
  type ShownItem,
  type VariationKind,
  type VariationLabel,
} from './adversarial-pages';
export {
  runScenario,
  runScenarios,
  sameItems,
  scoreFields as scoreAdversarialFields,
  type PageOutcome,
  type ScenarioOutcome,
} from './adversarial-runner';
export { adversarialScenario, buildScenario, sampleScenarios } from './adversarial-scenarios';
