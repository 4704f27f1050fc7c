// The document extraction agent (spec 004 in docs/specs.md): tools that write one caller's
// records, the tool-calling loop that runs them, and the service that starts, resumes and
// streams document and stack runs. Its refusals are DocumentErrors.
export * from './tools';
export { DocumentError } from './document-error';
export {
  DocumentAgentService,
  DEFAULT_MAX_TURNS,
  type Caller,
  type DocumentAgentDeps,
  type DocumentRunJob,
  type NewExtractionInput,
  type NewStackInput,
  type StackRunJob,
  type JobAttempt,
  type JobRunEnd,
  type ReadDocument,
  type Run,
  type DocumentRead,
  type UploadedFile,
} from './document-agent-service';
export {
  extractionChannel,
  readRunBusMessage,
  type RunEventBus,
  type RunStreamItem,
} from './run-events';
export { readStackBusMessage, stackChannel } from './stack-events';
export { buildToolAgentGraph, runToolAgent, afterModel, type ToolAgentEvent } from './tool-agent';
export { stackToCsv } from './stack-csv';
