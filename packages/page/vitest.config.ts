import { defineConfig } from 'vitest/config';
import { vitestConfig } from '../../vitest.shared.ts';

// Browser tests share one Chromium per file; keep files from starving each other on 2 cores.
export default defineConfig(vitestConfig(import.meta.dirname, { fileParallelism: false }));
