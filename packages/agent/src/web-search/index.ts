export * from './port';
export * from './tavily-web-search';
export * from './disabled-web-search';
export * from './manage-search';
