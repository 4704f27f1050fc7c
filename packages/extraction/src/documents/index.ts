// The document extraction agent's tools and prompts (the document-extraction agent spec in
// docs/specs.md). The tool-calling loop that runs them lives with the LLM port in @tandem/agent.
export {
  createDocumentTools,
  documentTextPage,
  DOCUMENT_TEXT_BUDGET,
  DOCUMENT_TOOL_NAMES,
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
  continueRequest,
  correctionRequest,
  DOCUMENT_EXTRACTION_SYSTEM,
  extractionRequest,
  STACK_EXTRACTION_SYSTEM,
  stackRequest,
} from './prompts';
