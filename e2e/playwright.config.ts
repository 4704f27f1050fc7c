import path from 'node:path';
import { defineConfig } from '@playwright/test';

// One worker: every test drives one Chromium with the extension, the server and the demo
// sites, which is what a 2-core machine can run without timing noise.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  globalSetup: './support/global-setup.ts',
  reporter: [
    ['list'],
    ['json', { outputFile: path.resolve(import.meta.dirname, '../.reports/playwright-e2e.json') }],
  ],
  outputDir: path.resolve(import.meta.dirname, '../.reports/playwright-artifacts'),
});
