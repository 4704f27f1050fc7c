export * from './scripted-llm';
export * from './harness';
export * from './state';
export {
  startFakeHttpServer,
  type FakeHttpServer,
  type RecordedRequest,
} from '../llm/test-support/fake-http-server';
export { nodeOfSystem } from './node-of-system';
