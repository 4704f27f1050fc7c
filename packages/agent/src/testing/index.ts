export * from './scripted-llm';
export * from './harness';
export * from './state';
