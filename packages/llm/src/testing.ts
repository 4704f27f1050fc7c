// The model doubles, for tests and benches only (never imported by production code): the
// scripted client that answers each node from a script, the fake HTTP servers the real
// providers' tests talk to, and the Gemini wire the e2e suite's and the benches'
// scripted models answer the real server through.
export * from './scripted-client';
export * from './test-support/fake-http-server';
export * from './test-support/gemini-wire';
export * from './test-support/fake-embeddings';
