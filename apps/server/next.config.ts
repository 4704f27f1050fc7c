import type { NextConfig } from 'next';

// The production image (Dockerfile) builds with NEXT_OUTPUT=standalone: a self-contained
// server.js that starts without the `next` CLI or this file. Only there: `next start`, which
// `npm start` and the tests run, warns on a standalone build. A build-time switch of the image,
// not a server setting, so it is read here and not in env.ts.
// eslint-disable-next-line no-restricted-properties
const standalone = process.env.NEXT_OUTPUT === 'standalone';

const config: NextConfig = {
  ...(standalone ? { output: 'standalone' as const } : {}),
  // Workspace packages export TypeScript source; Next compiles them with the app.
  transpilePackages: [
    '@tandem/contracts',
    '@tandem/store',
    '@tandem/agent',
    '@tandem/documents',
    '@tandem/observability',
  ],
  // Native or driver-heavy modules stay as plain Node requires instead of being bundled.
  serverExternalPackages: [
    '@libsql/client',
    'libsql',
    'mongoose',
    'mongodb',
    '@langchain/langgraph-checkpoint-mongodb',
    // Knowledge ingestion: OCR runs tesseract.js workers from their own files, and scanned
    // PDF pages are drawn with a native canvas addon; neither survives bundling.
    'tesseract.js',
    '@tesseract.js-data/eng',
    '@napi-rs/canvas',
    'unpdf',
    'mammoth',
    'jsdom',
    // The parse pool starts its threads from piscina's own files (and ours: see
    // @tandem/parse-pool), which bundling would move away from them.
    'piscina',
    // BullMQ loads its Lua scripts from files next to its own modules.
    'bullmq',
    'ioredis',
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  // forbidden()/unauthorized(): admin pages answer 403/401 with a page, not a redirect.
  experimental: { authInterrupts: true },
};

export default config;
