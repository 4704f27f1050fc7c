// The loop's view of a browser tab. An interface rather than chrome.* calls so the loop runs in
// unit tests against a scripted tab; chrome-tab-driver.ts is the real one.
import type {
  DomMode,
  InteractRequestInput,
  PageSnapshot,
  SnapshotRequest,
  Viewport,
} from '@tandem/contracts';
import type { ExecuteReply, SettleReply } from '../shared/messages';

/** The page-state fields of an InteractRequest, as the content script captured them. */
export type CapturedPage = Omit<InteractRequestInput, 'query' | 'taskId' | 'sessionId'> & {
  url: string;
};

export interface TabDriver {
  capture(tabId: number, mode: DomMode): Promise<CapturedPage>;
  /** An outline or content snapshot (spec 002), answering the server's needs_snapshot. */
  snapshot(tabId: number, request: SnapshotRequest): Promise<PageSnapshot>;
  execute(tabId: number, action: string, observe: boolean): Promise<ExecuteReply>;
  /** Waits until the tab's page is stable (across a navigation) and reports what happened. */
  settle(tabId: number, beforeUrl: string): Promise<SettleReply>;
  /**
   * JPEG (base64) of the tab's visible viewport, for hybrid mode only, scaled to `viewport` so
   * one image pixel is one CSS pixel (clickAt's unit). null when it cannot be taken.
   */
  screenshot?(tabId: number, viewport?: Viewport): Promise<string | null>;
}
