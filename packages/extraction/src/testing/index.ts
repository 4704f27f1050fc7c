export { answerFromPrompt, contentOf, schemaOf } from './read-content';
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
