export * from './port';
export * from './rag-service';
