export * from './port';
export { hashApiKey, generateApiKey, API_KEY_PREFIX } from './shared';
export { createStore, type CreateStoreOptions } from './create-store';
export { createLibsqlStore, type LibsqlStoreOptions } from './libsql/index';
// Type-only imports of mongoose there: ops scripts get the Atlas index definition without
// loading the Mongo adapter.
export {
  knowledgeVectorIndexName,
  knowledgeVectorSearchIndex,
  type KnowledgeVectorSearchIndex,
} from './entities/knowledge/mongo-vector-index';
