// Next.js calls register() once when the server process starts. The Node-only start-up
// (Sentry, the store and its migrations, a dev tenant) lives in instrumentation-node.ts.
import * as Sentry from '@sentry/nextjs';

export async function register(): Promise<void> {
  // NEXT_RUNTIME is a build-time constant Next substitutes, not configuration: comparing it
  // directly is what lets the bundler drop the Node-only import from the edge bundle.
  // eslint-disable-next-line no-restricted-properties
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServer } = await import('./instrumentation-node');
    await startServer();
  }
}

// Errors that escape a route or render (createRoute catches its own and reports them through
// reportError with the tenant attached). A no-op until Sentry is initialised in Node, and
// expected 4xx are dropped by the beforeSend in error-reporting.ts.
export const onRequestError = Sentry.captureRequestError;
