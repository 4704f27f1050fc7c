// Golden files: compared exactly; UPDATE_GOLDEN=1 rewrites them (then review the diff by hand).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { testEnv } from '../env';

export const GOLDEN_DIR = path.resolve(import.meta.dirname, '../golden');

export function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, name);
  const text = `${actual}\n`;
  if (testEnv.updateGolden || !existsSync(file)) {
    if (!testEnv.updateGolden) {
      throw new Error(`missing golden ${file}: run with UPDATE_GOLDEN=1 and review it`);
    }
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(text, `golden ${name} (UPDATE_GOLDEN=1 rewrites it)`).toBe(readFileSync(file, 'utf8'));
}
