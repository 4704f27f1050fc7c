// Every package's vitest run writes a JSON report under <root>/.reports so that
// `npm test` can print one honest `N passed, N failed` line across all packages.
import path from 'node:path';

type Reporter = string | [string, Record<string, unknown>];

export function reporters(packageDir: string): Reporter[] {
  const root = path.resolve(import.meta.dirname);
  const name = path.relative(root, packageDir).replaceAll(path.sep, '-');
  return ['default', ['json', { outputFile: path.join(root, '.reports', `vitest-${name}.json`) }]];
}
