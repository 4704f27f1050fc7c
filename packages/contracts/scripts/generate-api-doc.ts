// Writes docs/api.md at the repository root. `--check` exits 1 instead when the file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderApiDoc } from '../src/api-doc';

const API_DOC_PATH = path.resolve(import.meta.dirname, '../../../docs/api.md');

const rendered = renderApiDoc();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(API_DOC_PATH, 'utf8');
  } catch {
    // A missing file is simply stale.
  }
  if (current !== rendered) {
    console.error(`${API_DOC_PATH} is stale: run npm run docs:api`);
    process.exit(1);
  }
  console.log(`${API_DOC_PATH} is up to date`);
} else {
  writeFileSync(API_DOC_PATH, rendered);
  console.log(`wrote ${API_DOC_PATH}`);
}
