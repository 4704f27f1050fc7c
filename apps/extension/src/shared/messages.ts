// Every message between popup, service worker and content script has a schema and is checked
// on receipt, sender included: a web page can talk to a content script's window but must never
// be able to drive the agent.
import {
  ClientObservations,
  DomMode,
  FormKind,
  RoutineRunRequest,
  SnapshotRequest,
  TaskSites,
} from '@tandem/contracts';
import { z } from 'zod';

// ---- service worker → content script --------------------------------------------------
export const ContentRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('capture'), mode: DomMode }),
  /** Starts observing (network, DOM, URL) and executes one action. */
  z.object({
    type: z.literal('execute'),
    action: z.string().min(1).max(50_000),
    observe: z.boolean(),
    /** The task's sites: a click or navigate leading elsewhere is refused in the page. */
    allowedSites: z.array(z.string()).optional(),
    /** The action types a secret: only on a page of these sites. */
    typeOnlyOn: z.array(z.string()).optional(),
  }),
  /** What the page says of the targets of a step: their form and where a click leads. */
  z.object({ type: z.literal('inspect'), ids: z.array(z.string().max(64)).max(50) }),
  /** Waits for stability and returns what was observed since the first `execute`. */
  z.object({ type: z.literal('settle') }),
  /**
   * The server's needs_snapshot: an outline or content snapshot of the page (docs/specs.md, "page
   * snapshots").
   */
  z.object({ type: z.literal('snapshot'), request: SnapshotRequest }),
]);
export type ContentRequest = z.infer<typeof ContentRequest>;

export const ExecuteReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), action: z.string(), detail: z.string().optional() }),
  z.object({ ok: z.literal(false), action: z.string(), error: z.string(), code: z.string() }),
]);
export type ExecuteReply = z.infer<typeof ExecuteReply>;

export const SettleReply = z.object({
  observations: ClientObservations,
  stable: z.boolean(),
  waitedMs: z.number(),
  url: z.string(),
  /** The document is new since the action (it navigated): nothing was being observed. */
  fresh: z.boolean(),
});
export type SettleReply = z.infer<typeof SettleReply>;

export const TargetFactsReply = z.record(
  z.string(),
  z.object({
    role: z.string(),
    name: z.string(),
    form: FormKind.nullable(),
    leadsTo: z.string().nullable(),
  }),
);
export type TargetFactsReply = z.infer<typeof TargetFactsReply>;

// ---- popup → service worker ------------------------------------------------------------
export const WorkerRequest = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('task:start'),
    tabId: z.number().int().nonnegative(),
    goal: z.string().trim().min(1).max(4000),
    /** Sites the task may visit besides the one it starts on. */
    sites: TaskSites.optional(),
    /** The popup's "Run again with…": the routine the goal was filled from, and its values. */
    routine: RoutineRunRequest.optional(),
  }),
  z.object({ type: z.literal('task:stop'), tabId: z.number().int().nonnegative() }),
  /** The user's answer to the run's question: the same task continues. */
  z.object({
    type: z.literal('task:answer'),
    tabId: z.number().int().nonnegative(),
    answer: z.string().trim().min(1).max(4000),
  }),
  /** The user approves the step waiting on its approval card; `actions`: as they edited it. */
  z.object({
    type: z.literal('task:approve'),
    tabId: z.number().int().nonnegative(),
    actions: z.array(z.string().min(1).max(50_000)).min(1).max(50).optional(),
  }),
  /** The user rejects it: nothing runs, and the agent looks for another way. */
  z.object({
    type: z.literal('task:reject'),
    tabId: z.number().int().nonnegative(),
    note: z.string().trim().max(1_000).optional(),
  }),
]);
export type WorkerRequest = z.infer<typeof WorkerRequest>;

export const WorkerReply = z.object({ ok: z.boolean(), error: z.string().optional() });
export type WorkerReply = z.infer<typeof WorkerReply>;

/**
 * Messages from our own extension pages (popup/options). A page opened in a tab still has our
 * chrome-extension:// origin, which no website and no content script can have.
 */
export function isFromExtensionPage(
  sender: chrome.runtime.MessageSender,
  extensionId: string,
): boolean {
  const from = sender.origin ?? sender.url ?? '';
  return sender.id === extensionId && from.startsWith(`chrome-extension://${extensionId}`);
}

/** Messages from our service worker (no tab, no page URL of a website). */
export function isFromServiceWorker(
  sender: chrome.runtime.MessageSender,
  extensionId: string,
): boolean {
  return sender.id === extensionId && sender.tab === undefined;
}
