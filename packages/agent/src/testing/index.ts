export * from './scripted-llm';
export * from './harness';
export * from './state';
export {
  startFakeHttpServer,
  type FakeHttpServer,
  type RecordedRequest,
} from '@tandem/llm/testing';
export { nodeOfSystem } from './node-of-system';
