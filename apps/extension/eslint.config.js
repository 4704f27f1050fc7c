import { tandem } from '@tandem/eslint-config';

export default [
  ...tandem({ kind: 'extension', maxFunctionLines: 80 }),
  {
    // Build configuration runs in Node, not in the extension.
    files: ['vite.config.ts', 'manifest.config.ts', 'vitest.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Integration tests run in Node and are never bundled: they may stand up a loopback HTTP
    // server (node:http) for the real API client to talk to.
    files: ['src/**/*.int.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
];
