import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { reporters } from '../../vitest.shared';

export default defineConfig({
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'src') } },
  test: {
    include: ['src/**/*.test.ts'],
    reporters: reporters(import.meta.dirname),
  },
});
