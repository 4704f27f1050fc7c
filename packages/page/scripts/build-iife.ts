// Builds the browser bundles with esbuild:
//   dist/tandem-page.iife.js     window.TandemPage (capture, execute, stability)
//   dist/tandem-network.iife.js  fetch/XHR tracking for the page's MAIN world
// `buildIife({ write: false })` returns the code in memory (tests serve it without touching
// dist/).  Run: npm run build -- --filter=@tandem/page
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { build } from 'esbuild';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const BUNDLES = {
  page: { entry: 'src/iife.ts', file: 'tandem-page.iife.js' },
  network: { entry: 'src/network-iife.ts', file: 'tandem-network.iife.js' },
} as const;

export type BundleName = keyof typeof BUNDLES;

/**
 * zod exposes every locale on its `z` namespace object; @tandem/contracts uses `z` as a value,
 * so esbuild keeps all ~40 locales (~150 KiB minified) although only English is configured.
 * The bundle gets an index that re-exports English only.
 */
const englishOnlyZodLocales: Plugin = {
  name: 'zod-english-locale-only',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]/.test(args.importer)) return undefined;
      return {
        path: path.join(path.dirname(args.importer), '../locales/en.js'),
        namespace: 'zod-locales',
      };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * @tandem/contracts is a barrel of zod schemas whose module bodies build every wire schema at
 * load (~100-200 ms in a page). The page needs only the action grammar, so its modules are
 * declared side-effect free here and esbuild drops the ones nothing imports from.
 */
const contractsWithoutSideEffects: Plugin = {
  name: 'contracts-side-effect-free',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@tandem\/contracts$|^\.\.?\// }, async (args) => {
      const fromContracts = /[\\/]contracts[\\/]src[\\/]/.test(args.importer);
      if (args.path !== '@tandem/contracts' && !fromContracts) return undefined;
      if (args.pluginData === 'contracts') return undefined;
      const resolved = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'contracts',
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, sideEffects: false };
    });
  },
};

export interface BuildOptions {
  write?: boolean;
  outDir?: string;
  minify?: boolean;
}

export async function buildIife(options: BuildOptions = {}): Promise<Record<BundleName, string>> {
  const { write = true, outDir = path.join(packageDir, 'dist'), minify = true } = options;
  const out = {} as Record<BundleName, string>;
  for (const [name, bundle] of Object.entries(BUNDLES) as [
    BundleName,
    (typeof BUNDLES)[BundleName],
  ][]) {
    const result = await build({
      entryPoints: [path.join(packageDir, bundle.entry)],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      minify,
      write: false,
      legalComments: 'none',
      plugins: [englishOnlyZodLocales, contractsWithoutSideEffects],
      logLevel: 'warning',
    });
    const code = result.outputFiles[0]?.text ?? '';
    out[name] = code;
    if (write) {
      await mkdir(outDir, { recursive: true });
      await writeFile(path.join(outDir, bundle.file), code);
    }
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bundles = await buildIife();
  for (const [name, code] of Object.entries(bundles)) {
    console.log(`${BUNDLES[name as BundleName].file}: ${(code.length / 1024).toFixed(1)} KiB`);
  }
}
