import { tandem } from '@tandem/eslint-config';

export default [
  ...tandem({ kind: 'extension', maxFunctionLines: 80 }),
  {
    // Build configuration runs in Node, not in the extension.
    files: ['vite.config.ts', 'manifest.config.ts', 'vitest.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
];
