import { defineManifest } from '@crxjs/vite-plugin';
import packageJson from './package.json' with { type: 'json' };

// Permissions, and why each is needed:
//  storage   — taskId per tab (task_${tabId}), the running loop, settings (docs/specs.md,
//              "taskId persistence and task recovery").
//  tabs      — the active tab's URL, load events after navigation, captureVisibleTab (hybrid mode).
//  alarms    — wakes a stopped service worker to resume a running task.
//  scripting — the MAIN-world network tracker; re-injecting into tabs opened before install.
//  sidePanel — the live view beside the page: a popup closes as soon as the user clicks the
//              page the agent works on, the side panel stays open while the agent acts.
//  declarativeNetRequestWithHostAccess — while a task runs, its tab may not navigate outside
//              the task's sites (session rules scoped to that tab, site-guard.ts). The
//              host-access variant adds no install warning beyond <all_urls> below.
//  host_permissions <all_urls> — an agent acts on whatever site the user is on, across
//  navigations, and the service worker calls the Tandem server the user configured. Not just
//  http(s): captureVisibleTab (hybrid mode's screenshot) demands <all_urls> or activeTab, and
//  activeTab is lost at the first navigation. Content scripts still run on http(s) pages only.
export default defineManifest({
  manifest_version: 3,
  name: 'Tandem',
  description: 'An AI browser agent: type a goal, watch it plan, act and verify each step.',
  version: packageJson.version,
  action: { default_popup: 'src/popup/index.html', default_title: 'Tandem' },
  options_page: 'src/options/index.html',
  side_panel: { default_path: 'src/sidepanel/index.html' },
  background: { service_worker: 'src/background/index.ts', type: 'module' },
  permissions: [
    'storage',
    'tabs',
    'scripting',
    'alarms',
    'sidePanel',
    'declarativeNetRequestWithHostAccess',
  ],
  host_permissions: ['<all_urls>'],
  // The MAIN-world network tracker (tandem-network.js) is registered by the service worker
  // with chrome.scripting: bundlers' content-script loaders cannot run in the page's world.
  content_scripts: [
    {
      matches: ['http://*/*', 'https://*/*'],
      js: ['src/content/index.ts'],
      run_at: 'document_idle',
    },
  ],
});
