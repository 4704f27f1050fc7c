export * from './port';
export { hashApiKey, generateApiKey, API_KEY_PREFIX } from './shared';
