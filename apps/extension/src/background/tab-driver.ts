// The loop's view of a browser tab. An interface rather than chrome.* calls so the loop runs in
// unit tests against a scripted tab; chrome-tab-driver.ts is the real one.
import type {
  DomMode,
  InteractRequestInput,
  PageSnapshot,
  SnapshotRequest,
  Viewport,
} from '@tandem/contracts';
import type { ExecuteReply, SettleReply, TargetFactsReply } from '../shared/messages';

/** The page-state fields of an InteractRequest, as the content script captured them. */
export type CapturedPage = Omit<InteractRequestInput, 'query' | 'taskId' | 'sessionId'> & {
  url: string;
};

/** What the page itself enforces while it executes an action. */
export interface ExecuteLimits {
  /** A click or navigate leading to another site is refused (code `blocked`). */
  allowedSites?: readonly string[];
  /** The action types a secret's value: only on a page of these sites. */
  typeOnlyOn?: readonly string[];
}

export interface TabDriver {
  capture(tabId: number, mode: DomMode): Promise<CapturedPage>;
  /**
   * An outline or content snapshot (docs/specs.md, "page snapshots"), answering the server's
   * needs_snapshot.
   */
  snapshot(tabId: number, request: SnapshotRequest): Promise<PageSnapshot>;
  execute(
    tabId: number,
    action: string,
    observe: boolean,
    limits?: ExecuteLimits,
  ): Promise<ExecuteReply>;
  /** The targets' form and destination, read before a step runs (approval, sites). */
  inspect?(tabId: number, ids: string[]): Promise<TargetFactsReply>;
  /** The tab's URL now, whatever it shows (an error page of a blocked navigation too). */
  currentUrl?(tabId: number): Promise<string | undefined>;
  /** Back in the tab's history, waiting for the page to load. */
  goBack?(tabId: number): Promise<void>;
  /** Opens `url` in the tab, waiting for the page to load. */
  goTo?(tabId: number, url: string): Promise<void>;
  /** Waits until the tab's page is stable (across a navigation) and reports what happened. */
  settle(tabId: number, beforeUrl: string): Promise<SettleReply>;
  /**
   * JPEG (base64) of the tab's visible viewport, for hybrid mode only, scaled to `viewport` so
   * one image pixel is one CSS pixel (clickAt's unit). null when it cannot be taken.
   */
  screenshot?(tabId: number, viewport?: Viewport): Promise<string | null>;
}
