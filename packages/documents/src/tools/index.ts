// The document extraction agent's tools and prompts (the document-extraction agent spec in
// docs/specs.md), bound per run to one caller and its records; the loop that runs them is
// ../tool-agent.ts.
export {
  createDocumentTools,
  documentTextPage,
  DOCUMENT_TEXT_BUDGET,
  DOCUMENT_TEXT_FENCE,
  DOCUMENT_TOOL_NAMES,
  NEXT_PAGE_CALL,
  type DocumentToolName,
  type DocumentToolScope,
} from './document-tools';
export {
  cellProblem,
  createStackTools,
  STACK_TOOL_NAMES,
  type StackToolScope,
} from './stack-tools';
export {
  confidenceTree,
  fieldProblems,
  flattenConfidences,
  lowConfidencePaths,
  LOW_CONFIDENCE,
  shapeConfidence,
  valueAt,
  withFieldRemoved,
  withFieldSet,
} from './fields';
export { defineTool, isToolError, ToolError, type AgentTool } from './tool';
export {
  CONTINUE_OPENING,
  continueRequest,
  CORRECTION_OPENING,
  correctionRequest,
  DOCUMENT_EXTRACTION_SYSTEM,
  extractionRequest,
  STACK_EXTRACTION_SYSTEM,
  stackRequest,
} from './prompts';
