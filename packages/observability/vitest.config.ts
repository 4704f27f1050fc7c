import { defineConfig } from 'vitest/config';
import { reporters } from '../../vitest.shared';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: reporters(import.meta.dirname),
    // Integration tests do real I/O; under CI load a default 5 s budget is a coin toss.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
