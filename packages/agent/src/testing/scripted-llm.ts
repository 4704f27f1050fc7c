// The scripted LLM for tests of nodes and the graph (see llm/scripted-client.ts).
export * from '@tandem/llm/testing';
