export * from './scripted-llm';
export * from './harness';
