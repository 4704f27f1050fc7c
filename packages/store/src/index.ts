export * from './port';
export { hashApiKey, generateApiKey, API_KEY_PREFIX } from './shared';
export { createStore, type CreateStoreOptions } from './create-store';
export { createLibsqlStore, type LibsqlStoreOptions } from './libsql/index';
