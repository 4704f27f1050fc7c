import { defineConfig } from 'vitest/config';
import { vitestConfig } from '../../vitest.shared.ts';

export default defineConfig(vitestConfig(import.meta.dirname));
