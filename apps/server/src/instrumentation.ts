// Next.js calls register() once when the server process starts (next start: before it serves
// anything). The Node-only start-up (environment, Sentry, the store and its migrations, a dev
// tenant) lives in instrumentation-node.ts; a start that fails there ends a production server.
import * as Sentry from '@sentry/nextjs';

export async function register(): Promise<void> {
  // NEXT_RUNTIME and NODE_ENV are build-time constants Next substitutes, not configuration:
  // comparing NEXT_RUNTIME directly is what lets the bundler drop the Node-only import from the
  // edge bundle, and NODE_ENV is 'development' exactly in `next dev`'s compilation.
  // eslint-disable-next-line no-restricted-properties
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServer } = await import('./instrumentation-node');
    // eslint-disable-next-line no-restricted-properties
    await startServer({ exitOnFailure: process.env.NODE_ENV !== 'development' });
  }
}

// Errors that escape a route or render (createRoute catches its own and reports them through
// reportError with the tenant attached). A no-op until Sentry is initialised in Node, and
// expected 4xx are dropped by the beforeSend in error-reporting.ts.
export const onRequestError = Sentry.captureRequestError;
