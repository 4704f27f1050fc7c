// Tests and benchmarks use the system Chromium: Playwright must not download browsers here.
// These flags keep it from reaching the network on its own (the machines have no network).
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Absolute path of a Chromium binary, or throws with what to install. */
export function chromiumPath() {
  for (const candidate of CANDIDATES) if (existsSync(candidate)) return candidate;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const found = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (found) return found;
    } catch {
      // not on PATH
    }
  }
  throw new Error(
    'Chromium not found: install it with `apt-get install -y chromium` (CI does this).',
  );
}

/**
 * Options for Playwright's `chromium.launchPersistentContext` that load an unpacked extension
 * (Chrome loads extensions only into a persistent profile): the system Chromium, headless, the
 * flags above, and the viewport every test and benchmark uses.
 */
export function extensionLaunchOptions(extensionDir) {
  return {
    executablePath: chromiumPath(),
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
    viewport: { width: 1280, height: 800 },
  };
}
