// The one vitest configuration every package uses:
// `export default defineConfig(vitestConfig(import.meta.dirname))`. It imports nothing from
// vitest: this file sits at the root, where no vitest is installed (each package has its own),
// and each package's defineConfig checks the object against its vitest's types.
// Each package's run writes a JSON report under <root>/.reports so that `npm test` can print
// one honest `N passed, N failed` line across all packages. Test tiers are file names:
// `*.test.ts` unit (no I/O), `*.int.test.ts` integration; `npm run test:unit` runs the first.
import path from 'node:path';

type Reporter = string | [string, Record<string, unknown>];

export function reporters(packageDir: string): Reporter[] {
  const root = path.resolve(import.meta.dirname);
  const name = path.relative(root, packageDir).replaceAll(path.sep, '-');
  return ['default', ['json', { outputFile: path.join(root, '.reports', `vitest-${name}.json`) }]];
}

export interface VitestOptions {
  /** Test file globs; by default every `*.test.ts` under `src/` and `test/`. */
  include?: string[];
  /**
   * False for suites whose files share one Chromium or one server: on 2 cores, files run side
   * by side starve each other into timeouts.
   */
  fileParallelism?: boolean;
}

export function vitestConfig(packageDir: string, options: VitestOptions = {}) {
  return {
    test: {
      include: options.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      reporters: reporters(packageDir),
      ...(options.fileParallelism === false ? { fileParallelism: false } : {}),
      // Integration tests do real I/O; under CI load a default 5 s budget is a coin toss.
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}
