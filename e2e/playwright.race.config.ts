import base from './playwright.config';
import { defineConfig } from '@playwright/test';

// Snapshot-race benchmark (docs/specs.md, "stability wait"): the add-patient flow with its async
// save, 20 times. A run "raced" if any verification failed, i.e. the capture after Save saw the
// spinner instead of the result and a correction was needed.
export default defineConfig({
  ...base,
  grep: /add a new patient/,
  repeatEach: 20,
  reporter: [['list']],
});
