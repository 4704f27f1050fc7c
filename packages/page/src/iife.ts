// Entry of dist/tandem-page.iife.js: the API on window.TandemPage for tests, benches and
// injection with chrome.scripting.executeScript (the extension calls snapshot() through it).
// Loading it also starts network tracking in this JS world, so a later waitForStability sees
// requests that started before it was called.
import {
  capturePageState,
  captureSemantic,
  captureSkeleton,
  captureTree,
  execute,
  inspectTargets,
  installNetworkTracker,
  observeAction,
  resolveXpath,
  snapshot,
  snapshotLinks,
  startObservation,
  waitForStability,
} from './index';
import { networkMonitor } from './stability/network';

const api = {
  captureTree,
  capturePageState,
  captureSemantic,
  captureSkeleton,
  execute,
  inspectTargets,
  waitForStability,
  observeAction,
  startObservation,
  installNetworkTracker,
  snapshot,
  snapshotLinks,
  resolveXpath,
};

export type TandemPageApi = typeof api;

declare global {
  interface Window {
    TandemPage: TandemPageApi;
  }
}

networkMonitor(window);
installNetworkTracker(window);
window.TandemPage = api;
