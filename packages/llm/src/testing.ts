// The model doubles, for tests and benches only (never imported by production code): the
// scripted client that answers each node from a script, and the fake HTTP servers and provider
// the real providers' tests talk to.
export * from './scripted-client';
export * from './test-support/fake-http-server';
export * from './test-support/fake-provider';
export * from './test-support/fake-embeddings';
