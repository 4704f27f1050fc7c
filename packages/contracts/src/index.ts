export * from './domain';
export * from './errors';
