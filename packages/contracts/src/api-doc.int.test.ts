// Reads the checked-in docs/api.md (file I/O, hence the int tier) and fails when it is stale.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { API_DOC_COMMAND, renderApiDoc } from './api-doc';

it('docs/api.md matches the contracts', () => {
  const file = path.resolve(import.meta.dirname, '../../../docs/api.md');
  const current = readFileSync(file, 'utf8');
  expect(current === renderApiDoc(), `docs/api.md is stale: run ${API_DOC_COMMAND}`).toBe(true);
});
