import { defineConfig } from 'vitest/config';
import { vitestConfig } from '../vitest.shared.ts';

// Only the benches' pure parts are unit-tested; the benches themselves run by script.
export default defineConfig(vitestConfig(import.meta.dirname, { include: ['**/*.test.ts'] }));
