// The scripted LLM for tests of nodes and the graph (see llm/scripted-client.ts).
export * from '@tandem/llm/testing';
export * from './harness';
export * from './state';
export { nodeOfSystem } from './node-of-system';
