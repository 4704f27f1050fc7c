export * from './port';
export * from './provider';
export * from './structured-output';
export * from './create-llm-client';
export * from './gemini-provider';
export * from './openai-compatible-provider';
export * from './unconfigured-client';
export * from './llm-config';
