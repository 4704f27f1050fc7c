export * from './port';
export * from './bm25';
export * from './rag-service';
