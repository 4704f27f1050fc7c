// Next.js calls register() once when the server process starts. The Node-only start-up (open
// the store, run migrations, ensure a dev tenant) lives in instrumentation-node.ts.
export async function register(): Promise<void> {
  // NEXT_RUNTIME is a build-time constant Next substitutes, not configuration: comparing it
  // directly is what lets the bundler drop the Node-only import from the edge bundle.
  // eslint-disable-next-line no-restricted-properties
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServer } = await import('./instrumentation-node');
    await startServer();
  }
}
