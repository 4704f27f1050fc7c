// .env.example must document every variable env.ts reads (a README that stays true).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '@tandem/contracts';
import { EnvSchema } from './env';

describe('.env.example', () => {
  it('documents every server environment variable', () => {
    const example = readFileSync(
      path.resolve(import.meta.dirname, '../../../.env.example'),
      'utf8',
    );
    const documented = new Set(
      example
        .split('\n')
        .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
        .filter((name): name is string => Boolean(name)),
    );
    const missing = Object.keys(EnvSchema.shape).filter((name) => !documented.has(name));
    expect(missing).toEqual([]);
  });

  it('gives every input budget with the default the server uses', () => {
    const example = readFileSync(
      path.resolve(import.meta.dirname, '../../../.env.example'),
      'utf8',
    );
    for (const spec of Object.values(INPUT_LIMITS)) {
      expect(example).toContain(`\n${spec.setting}=${spec.default}\n`);
    }
  });
});
