// The docs article of apps/demo-sites, read as a file: packages may not import apps, and the
// page is the shared fixture for the golden, parity and bench checks of snapshot().
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const DEMO_PUBLIC_DIR = path.resolve(
  import.meta.dirname,
  '../../../../apps/demo-sites/public',
);

export const readDocsDemo = (): string =>
  readFileSync(path.join(DEMO_PUBLIC_DIR, 'docs/index.html'), 'utf8');

/** The URL the page is given on the server side; the Chromium test serves it at the same path. */
export const DOCS_DEMO_PATH = '/docs/';
