// Test helpers: local HTTP servers that the real LangFuse and Sentry SDKs talk to.
export {
  closedPortUrl,
  startLangfuseCaptureServer,
  type AttributeValue,
  type CaptureMode,
  type CapturedRequest,
  type CapturedScore,
  type CapturedSpan,
  type LangfuseCaptureServer,
} from './langfuse-capture-server';
export {
  startSentryCaptureServer,
  type CapturedEnvelope,
  type EnvelopeItem,
  type SentryCaptureServer,
} from './sentry-capture-server';
