// What the parts of the interact service share: the service's collaborators, and one request's
// scope (who asked, with which page, in which session).
import type { Logger } from '@tandem/observability';
import type { InteractRequest } from '@tandem/contracts';
import type { Store } from '@tandem/store';
import type { TaskEventHub } from '../collect/event-hub';
import type { AgentDeps } from '../deps';
import type { PageState } from '../page/page-state';
import type { RagService } from '../rag/port';
import type { GraphRunner } from './graph-runner';
import type { TaskLocks } from './task-locks';

export interface InteractCaller {
  tenantId: string;
  userId: string;
}

export interface InteractContext {
  store: Store;
  deps: AgentDeps;
  rag: RagService;
  /** Live step/done events for the SSE route (the popup's live view); absent: none sent. */
  events?: TaskEventHub;
  locks: TaskLocks;
  runner: GraphRunner;
  /** Where a full DOM is digested (InteractServiceOptions.digestHtml). */
  digestHtml?: (tenantId: string, html: string) => Promise<string>;
}

export interface RequestScope {
  caller: InteractCaller;
  request: InteractRequest;
  page: PageState;
  sessionId: string;
  /**
   * The request's hash (idempotent-replay.ts) when it has an idempotency key, else null: the
   * same request sent again after its run threw goes on where that run failed.
   */
  requestHash: string | null;
  /** Date.now() when the request started: step durations are measured from it. */
  started: number;
  log: Logger;
}
