// Test doubles for the document agent: demo documents rendered as real files, and the scripted
// model that reads only what the tools return.
export {
  CLAIM,
  DEMO_DOCUMENTS,
  demoFiles,
  INVOICE,
  invoiceVariant,
  LAB_REPORT,
  layoutLines,
  renderDocx,
  renderPdf,
  renderScannedPdf,
  type DemoDocument,
  type DemoFile,
  type DemoLayout,
} from './demo-documents';
export type { ModelMessage, ModelTurn } from './document-model';
export { documentModelTurn, stackModelTurn } from './document-scenarios';
export {
  geminiTurnResponse,
  isToolCallingRequest,
  scriptedTurnForGemini,
  type GeminiToolRequest,
} from './gemini-document-model';
export { parsedToolCall } from './tool-call';
