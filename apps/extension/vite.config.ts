import { createRequire } from 'node:module';
import path from 'node:path';
import { crx } from '@crxjs/vite-plugin';
import { build } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import manifest from './manifest.config';

const require = createRequire(import.meta.url);
export const NETWORK_TRACKER_FILE = 'tandem-network.js';

// The page's fetch/XHR tracker must run in the page's own JS world as one classic script (no
// module loader, no chrome.* APIs), so it is bundled here as an IIFE and emitted as is.
function networkTracker(): Plugin {
  return {
    name: 'tandem-network-tracker',
    async generateBundle() {
      const pageEntry = path.join(path.dirname(require.resolve('@tandem/page')), 'network-iife.ts');
      const out = await build({
        entryPoints: [pageEntry],
        bundle: true,
        format: 'iife',
        target: 'chrome120',
        minify: true,
        write: false,
      });
      const code = out.outputFiles[0]?.text ?? '';
      this.emitFile({ type: 'asset', fileName: NETWORK_TRACKER_FILE, source: code });
    },
  };
}

export default defineConfig({
  plugins: [crx({ manifest }), networkTracker()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'chrome120', sourcemap: false },
});
