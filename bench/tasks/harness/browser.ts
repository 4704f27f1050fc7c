// Chromium with the real built extension, as a user has it: a persistent profile (MV3
// extensions need one), the extension's settings pointing at the server under test.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extensionLaunchOptions } from '@tandem/chromium';
import { chromium, type BrowserContext } from 'playwright-core';
import { extensionWorker, type ChromeApi, type ExtensionHandle } from './drive';

export const EXTENSION_DIST = path.resolve(import.meta.dirname, '../../../apps/extension/dist');

export interface ExtensionBrowser extends ExtensionHandle {
  close(): Promise<void>;
}

export async function launchExtension(server: {
  url: string;
  apiKey: string;
}): Promise<ExtensionBrowser> {
  if (!existsSync(path.join(EXTENSION_DIST, 'manifest.json')))
    throw new Error('apps/extension is not built: run `npm run bench:tasks` (it builds first).');
  const profile = mkdtempSync(path.join(tmpdir(), 'tandem-bench-profile-'));
  const context: BrowserContext = await chromium.launchPersistentContext(
    profile,
    extensionLaunchOptions(EXTENSION_DIST),
  );
  const worker = await extensionWorker(context);
  await worker.evaluate(
    (settings) =>
      (globalThis as unknown as { chrome: ChromeApi }).chrome.storage.local.set({ settings }),
    {
      serverUrl: server.url,
      apiKey: server.apiKey,
    },
  );
  return {
    context,
    extensionId: new URL(worker.url()).host,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
