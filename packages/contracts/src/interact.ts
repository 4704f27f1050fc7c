// Wire formats of the interact loop (docs/specs.md, "High-Level Loop", "Client Contract",
// "V3 Semantic Extraction", "action chaining"): POST /api/agent/interact and the
// task-recovery endpoint.
import { z } from 'zod';
import { ACTION_MAX_LENGTH, ParsedAction, formatAction, safeParseAction } from './action-grammar';
import { ApprovalDecision, ApprovalRequest } from './risk';
import { SECRETS_MAX, SecretRef } from './secrets';
import { TaskSites } from './site-policy';
import { CollectedCounts, CollectedItemsByType, RESULT_ITEMS_MAX } from './collected-counts';
import { EXTRACTION_LIMITS, ExtractionAggregate, ExtractionProgress } from './extraction';
import {
  ActionStatus,
  ChainAction,
  ChainMetadata,
  Complexity,
  ExpectedOutcome,
  Plan,
  TaskStatus,
  Usage,
  VerificationResult,
} from './domain';
import { formatCount } from './format-count';
import { SemanticNodeV3, V3AdvancedFields, Viewport } from './semantic-tree';
import { PageSnapshot, SnapshotRequest } from './snapshot';
import { RoutineRunInfo, RoutineRunRequest } from './routine';

/**
 * Caps on what one request may carry, so a broken or hostile client cannot make the server
 * hold gigabytes while validating. They sit well above what a healthy client sends.
 */
export const INTERACT_LIMITS = {
  urlLength: 8_192,
  queryLength: 4_000,
  answerLength: 4_000,
  domLength: 5_000_000,
  skeletonDomLength: 1_000_000,
  interactiveTreeNodes: 5_000,
  pageTitleLength: 1_000,
  screenshotLength: 4_000_000,
  errorLength: 4_000,
  chainActions: 50,
} as const;

export const PageUrl = z.url({ error: 'must be an absolute URL' }).max(INTERACT_LIMITS.urlLength, {
  error: `must be at most ${formatCount(INTERACT_LIMITS.urlLength)} characters`,
});
export type PageUrl = z.infer<typeof PageUrl>;

export const TaskId = z.uuid({ error: 'must be a UUID (the taskId of an earlier response)' });
export type TaskId = z.infer<typeof TaskId>;
export const SessionId = z.uuid({ error: 'must be a UUID (the sessionId of an earlier response)' });
export type SessionId = z.infer<typeof SessionId>;

/**
 * What the client witnessed while the last action ran (docs/specs.md, "clientObservations"); used
 * by verification.
 */
export const ClientObservations = z.object({
  didNetworkOccur: z.boolean().optional(),
  didDomMutate: z.boolean().optional(),
  didUrlChange: z.boolean().optional(),
});
export type ClientObservations = z.infer<typeof ClientObservations>;

/** Reported when a chain stopped early, so the server can resume from the failed action. */
export const ChainPartialState = z.object({
  executedActions: z.array(z.string().max(ACTION_MAX_LENGTH)).max(INTERACT_LIMITS.chainActions),
  domAfterLastSuccess: z.string().max(INTERACT_LIMITS.domLength).optional(),
  totalActionsInChain: z.number().int().positive().max(INTERACT_LIMITS.chainActions),
});
export type ChainPartialState = z.infer<typeof ChainPartialState>;

/** Why the chain action after `lastExecutedActionIndex` failed on the client. */
export const ChainActionError = z.object({
  action: z.string().max(ACTION_MAX_LENGTH),
  message: z.string().max(INTERACT_LIMITS.errorLength),
  index: z.number().int().nonnegative().optional(),
  code: z.string().max(64).optional(),
});
export type ChainActionError = z.infer<typeof ChainActionError>;

/** Cheapest first; `full` only when the server asked for it with `needs_full_dom`. */
export const DomMode = z.enum(['semantic_v3', 'semantic', 'skeleton', 'hybrid', 'full']);
export type DomMode = z.infer<typeof DomMode>;

const Screenshot = z
  .string()
  .max(INTERACT_LIMITS.screenshotLength, {
    error: `screenshot must be at most ${formatCount(INTERACT_LIMITS.screenshotLength)} characters of base64`,
  })
  .regex(/^(?:data:image\/(?:jpeg|png|webp);base64,)?[A-Za-z0-9+/]*={0,2}$/, {
    error: 'screenshot must be base64 (a data:image/jpeg;base64, prefix is tolerated)',
  });

/**
 * What the viewport shows besides the interactive elements, counted by the page package on
 * every tree capture. The server reads it to tell a page whose tree is empty because there is
 * nothing to act on from one whose controls the tree cannot see: drawn on a canvas, or built
 * from elements no rule recognises (docs/specs.md, "Mode Priority").
 */
export const ViewportContent = z.object({
  canvases: z.number().int().nonnegative().max(10_000).meta({
    description: 'Visible <canvas> elements of at least 48×48 CSS pixels in the viewport.',
  }),
  images: z.number().int().nonnegative().max(10_000).meta({
    description: 'Visible <img>, <svg> and <video> elements of at least 48×48 in the viewport.',
  }),
  textLength: z.number().int().nonnegative().max(1_000_000).meta({
    description: 'Characters of text in the document body (scripts and styles excluded), capped.',
  }),
});
export type ViewportContent = z.infer<typeof ViewportContent>;

/**
 * The request's fields without the cross-field rules, for code that needs to extend them
 * (zod refuses to extend a refined object). Validate requests with `InteractRequest`.
 */
export const InteractRequestFields = z.object({
  url: PageUrl.meta({ description: 'Current tab URL (after the last action).' }),
  query: z
    .string()
    .max(INTERACT_LIMITS.queryLength, {
      error: `query must be at most ${formatCount(INTERACT_LIMITS.queryLength)} characters`,
    })
    .optional()
    .meta({
      description: 'The user goal. Required to start a task; may be omitted with taskId.',
    }),
  answer: z
    .string()
    .trim()
    .min(1)
    .max(INTERACT_LIMITS.answerLength, {
      error: `answer must be at most ${formatCount(INTERACT_LIMITS.answerLength)} characters`,
    })
    .optional()
    .meta({
      description:
        "The user's answer to the question of a NeedsUserInputResponse; sent with that response's taskId and sessionId, it continues the same task.",
    }),
  routine: RoutineRunRequest.optional().meta({
    description:
      'New tasks only: rerun this routine with these values (the popup’s “Run again with…”). The query must read as the routine’s template with them; when the routine is not the tenant’s, is disabled, is of another site or its start page differs, the task runs with the model as usual.',
  }),
  collectLimit: z.number().int().min(1).max(10_000).optional().meta({
    description:
      'New tasks only: finish once this many items were collected. Without it, a goal such as "Extract 25 jobs" sets it.',
  }),
  dom: z
    .string()
    .max(INTERACT_LIMITS.domLength, {
      error: `dom must be at most ${formatCount(INTERACT_LIMITS.domLength)} characters — send interactiveTree (domMode "semantic_v3") instead`,
    })
    .optional()
    .meta({
      description:
        'Full DOM is never required in semantic_v3 mode. Required when domMode is "full"; dom or skeletonDom is required for "skeleton", and for "hybrid" when no screenshot is sent.',
    }),
  domMode: DomMode.optional().meta({
    description:
      'Defaults to "semantic_v3" when interactiveTree is sent, else "skeleton" when dom or skeletonDom is sent.',
  }),
  interactiveTree: z
    .array(SemanticNodeV3)
    .max(INTERACT_LIMITS.interactiveTreeNodes, {
      error: `interactiveTree must have at most ${formatCount(INTERACT_LIMITS.interactiveTreeNodes)} nodes — prune to the viewport`,
    })
    .optional()
    .meta({ description: 'V3 semantic tree; required for "semantic_v3" and "semantic".' }),
  viewport: Viewport.optional(),
  viewportContent: ViewportContent.optional(),
  pageTitle: z.string().max(INTERACT_LIMITS.pageTitleLength).optional(),
  ...V3AdvancedFields.shape,
  // null is accepted because a NeedsUserInputResponse carries `taskId: null` and clients
  // echo what they stored; it means the same as absent.
  taskId: TaskId.nullish().meta({
    description: "Absent on the first request; the previous response's taskId afterwards.",
  }),
  sessionId: SessionId.nullish(),
  lastActionStatus: ActionStatus.optional(),
  lastActionError: z.string().max(INTERACT_LIMITS.errorLength).optional(),
  previousUrl: PageUrl.optional(),
  clientObservations: ClientObservations.optional(),
  lastExecutedActionIndex: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .meta({ description: 'Index of the last chain action that succeeded.' }),
  chainPartialState: ChainPartialState.optional(),
  chainActionError: ChainActionError.optional(),
  screenshot: Screenshot.nullable().optional().meta({
    description:
      'Hybrid mode: base64 JPEG (quality 0.7) of the visible viewport, scaled so one image pixel is one CSS pixel (the unit of clickAt); null when unchanged.',
  }),
  skeletonDom: z
    .string()
    .max(INTERACT_LIMITS.skeletonDomLength, {
      error: `skeletonDom must be at most ${formatCount(INTERACT_LIMITS.skeletonDomLength)} characters`,
    })
    .optional(),
  screenshotHash: z.string().max(256).optional(),
  snapshot: PageSnapshot.optional().meta({
    description: "The answer to the previous response's needs_snapshot.",
  }),
  sites: TaskSites.optional().meta({
    description:
      'New tasks only: the sites the task may visit besides the one it starts on (which is always allowed). Every navigating action outside them is refused.',
  }),
  secrets: z.array(SecretRef).max(SECRETS_MAX).optional().meta({
    description:
      "The names and sites of the secrets the user stored in the extension, never their values: the model types {{secret:<name>}} and the extension fills the value in, on the secret's sites only.",
  }),
  approval: ApprovalDecision.optional().meta({
    description:
      "The user's decision on the previous response's `approval`: approved (executed as sent), edited (executed as `actions`), rejected (nothing executed).",
  }),
  idempotencyKey: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\x21-\x7e]+$/, { error: 'idempotencyKey must be printable ASCII without spaces' })
    .optional()
    .meta({
      description:
        'Same key = same request: a retry after a network error must not advance the task twice.',
    }),
});
export type InteractRequestFields = z.infer<typeof InteractRequestFields>;

const hasText = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

/** The mode a request is processed in: the explicit one, else inferred from what was sent. */
export function resolveDomMode(
  request: Pick<InteractRequestFields, 'domMode' | 'interactiveTree' | 'dom' | 'skeletonDom'>,
): DomMode | undefined {
  if (request.domMode) return request.domMode;
  if (request.interactiveTree) return 'semantic_v3';
  if (hasText(request.skeletonDom) || hasText(request.dom)) return 'skeleton';
  return undefined;
}

function checkInteractRequest(request: InteractRequestFields, ctx: z.RefinementCtx): void {
  if (request.answer !== undefined && request.taskId == null) {
    ctx.addIssue({
      code: 'custom',
      path: ['answer'],
      message: 'an answer continues a task: send it with the taskId of the question',
    });
  }
  if (request.approval !== undefined && request.taskId == null) {
    ctx.addIssue({
      code: 'custom',
      path: ['approval'],
      message: 'an approval continues a task: send it with the taskId of the response it answers',
    });
  }
  if (request.approval?.decision === 'edited' && !request.approval.actions) {
    ctx.addIssue({
      code: 'custom',
      path: ['approval', 'actions'],
      message: 'an edited approval carries the actions as executed',
    });
  }
  if (request.taskId == null && !hasText(request.query)) {
    ctx.addIssue({
      code: 'custom',
      path: ['query'],
      message: 'query is required to start a new task (it may be omitted only with a taskId)',
    });
  }

  const mode = resolveDomMode(request);
  if (mode === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['interactiveTree'],
      message:
        'page state is required: send interactiveTree (domMode "semantic_v3"), or skeletonDom / dom',
    });
  } else if ((mode === 'semantic_v3' || mode === 'semantic') && !request.interactiveTree) {
    ctx.addIssue({
      code: 'custom',
      path: ['interactiveTree'],
      message: `interactiveTree is required when domMode is "${mode}"`,
    });
  } else if (mode === 'full' && !hasText(request.dom)) {
    ctx.addIssue({
      code: 'custom',
      path: ['dom'],
      message: 'dom (non-empty) is required when domMode is "full"',
    });
  } else if (mode === 'skeleton' && !hasText(request.dom) && !hasText(request.skeletonDom)) {
    ctx.addIssue({
      code: 'custom',
      path: ['skeletonDom'],
      message: 'skeletonDom or dom is required when domMode is "skeleton"',
    });
  } else if (
    mode === 'hybrid' &&
    !hasText(request.screenshot) &&
    !hasText(request.dom) &&
    !hasText(request.skeletonDom)
  ) {
    // A page drawn on a canvas has an empty skeleton: the screenshot alone is its state.
    ctx.addIssue({
      code: 'custom',
      path: ['screenshot'],
      message: 'screenshot, skeletonDom or dom is required when domMode is "hybrid"',
    });
  }

  const chain = request.chainPartialState;
  if (chain && chain.executedActions.length > chain.totalActionsInChain) {
    ctx.addIssue({
      code: 'custom',
      path: ['chainPartialState', 'executedActions'],
      message: `${chain.executedActions.length} executed actions in a chain of ${chain.totalActionsInChain}`,
    });
  }
  if (
    chain &&
    request.lastExecutedActionIndex !== undefined &&
    request.lastExecutedActionIndex >= chain.totalActionsInChain
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['lastExecutedActionIndex'],
      message: `lastExecutedActionIndex must be below totalActionsInChain (${chain.totalActionsInChain})`,
    });
  }
}

/**
 * POST /api/agent/interact body. The parsed value is normalized: `domMode` is always set
 * (see `resolveDomMode`), a blank `query` and a null `taskId`/`sessionId` become absent.
 */
export const InteractRequest = InteractRequestFields.superRefine(checkInteractRequest).transform(
  (request) => {
    const { domMode: _domMode, query, taskId, sessionId, ...rest } = request;
    return {
      ...rest,
      // Never undefined here: checkInteractRequest rejected requests without page state.
      domMode: resolveDomMode(request) ?? 'semantic_v3',
      ...(hasText(query) ? { query } : {}),
      ...(taskId ? { taskId } : {}),
      ...(sessionId ? { sessionId } : {}),
    };
  },
);
export type InteractRequest = z.infer<typeof InteractRequest>;
/** What a client may send (before normalization): `domMode` optional, nulls allowed. */
export type InteractRequestInput = z.input<typeof InteractRequest>;

// ------------------------------------------------------------------ responses

export const InteractMetrics = z.object({
  requestDurationMs: z.number().nonnegative(),
  stepCount: z.number().int().nonnegative(),
  llmCalls: z.number().int().nonnegative().optional(),
  llmDurationMs: z.number().nonnegative().optional(),
  verificationDurationMs: z.number().nonnegative().optional(),
  tokensSaved: z.number().int().nonnegative().optional(),
});
export type InteractMetrics = z.infer<typeof InteractMetrics>;

/**
 * Actions that may appear in a chain. Chains are for clusters like form fills (docs/specs.md,
 * "action chaining"): nothing that ends the task, leaves the page or runs server-side.
 * Nor `clickAt`: its point was read from a screenshot taken before the chain, which any
 * earlier action of the chain may have made stale.
 */
export function isChainableAction(action: Pick<ParsedAction, 'name'>): boolean {
  return !['finish', 'fail', 'googleSearch', 'navigate', 'goBack', 'clickAt'].includes(action.name);
}

export const NextActionResponseFields = z.object({
  needsUserInput: z.literal(false).optional(),
  thought: z.string(),
  action: z.string().optional().meta({
    description:
      'Action grammar string, e.g. click("14"). Absent only when needs_full_dom, needs_screenshot or needs_snapshot is set; equals actions[0].action when a chain is sent.',
  }),
  actionDetails: ParsedAction.optional().meta({
    description: '`action`, parsed. Always sent together with `action`.',
  }),
  actionSummary: z.string().optional().meta({
    description:
      'The action (or chain) in plain language for people, as if done: "Clicked “Patients”", "Typed “Jas” into First name", "Read the page outline".',
  }),
  actions: z.array(ChainAction).min(1).max(INTERACT_LIMITS.chainActions).optional().meta({
    description:
      'A chain to execute in order; stop at the first failure (unless canFail) and report lastExecutedActionIndex.',
  }),
  chainMetadata: ChainMetadata.optional(),
  taskId: TaskId,
  sessionId: SessionId,
  plan: Plan.optional(),
  stepIndex: z.number().int().nonnegative(),
  status: TaskStatus,
  verification: VerificationResult.optional().meta({
    description: 'Verdict on the previous action (absent on the first request).',
  }),
  expectedOutcome: ExpectedOutcome.optional(),
  usage: Usage.optional(),
  metrics: InteractMetrics.optional(),
  hasOrgKnowledge: z.boolean().optional(),
  needs_full_dom: z
    .boolean()
    .optional()
    .meta({ description: 'Resend this step with domMode "full" and dom; execute nothing.' }),
  needs_screenshot: z.boolean().optional().meta({
    description:
      'Resend this step with domMode "hybrid": the tree as usual plus `screenshot` of the visible viewport; execute nothing. A client that cannot take one resends with domMode "full" instead.',
  }),
  needs_snapshot: SnapshotRequest.optional().meta({
    description: 'Resend this step with `snapshot` taken in this mode; execute nothing.',
  }),
  approval: ApprovalRequest.optional().meta({
    description:
      'The action or chain holds a high-risk action (a payment, a purchase, a deletion, a message): show it to the user and execute nothing until they approve or edit it; report the decision as the next request’s `approval`.',
  }),
  routine: RoutineRunInfo.optional().meta({
    description:
      'Set while the task runs a saved routine (and on the response where it handed over to the model): its name, version, progress, model calls and healed steps.',
  }),
  rePlanning: z.boolean().optional(),
  result: z.string().optional().meta({ description: 'Final answer once the task finished.' }),
  complexity: Complexity.optional(),
  collectLimit: z.number().int().positive().optional().meta({
    description: 'The task’s collect target (collectLimit), sent with `collected`.',
  }),
  duplicatesSkipped: z.number().int().nonnegative().optional().meta({
    description: 'Items collect skipped as duplicates so far (sent with `collected`).',
  }),
  collected: CollectedCounts.optional().meta({
    description:
      'Items stored by collect so far, per type; the items themselves are at GET /api/tasks/{taskId}/collected.',
  }),
  collectedItems: CollectedItemsByType.optional().meta({
    description: `Only on the response that ends a task that collected: the items' data grouped by type, in collection order. At most ${RESULT_ITEMS_MAX} items in all; when \`collected\` counts more, GET /api/tasks/{taskId}/collected pages through every one.`,
  }),
  extractions: z.array(ExtractionProgress).optional().meta({
    description:
      'The structured extractions of the task so far, counts only; the data is at GET /api/tasks/{taskId}/extractions.',
  }),
  extractedData: z
    .array(ExtractionAggregate)
    .optional()
    .meta({
      description: `Only on the response that ends a task that extracted: each extraction's data merged across pages (at most ${EXTRACTION_LIMITS.resultItems} items each; \`truncated\` says when GET /api/tasks/{taskId}/extractions has more).`,
    }),
});
export type NextActionResponseFields = z.infer<typeof NextActionResponseFields>;

/**
 * True when the client must resend the page (full DOM, a screenshot or a snapshot) instead of
 * acting.
 */
export function requestsPageState(
  response: Pick<
    NextActionResponseFields,
    'needs_full_dom' | 'needs_screenshot' | 'needs_snapshot'
  >,
): boolean {
  return (
    response.needs_full_dom === true ||
    response.needs_screenshot === true ||
    response.needs_snapshot !== undefined
  );
}

const sameAction = (a: ParsedAction, b: ParsedAction): boolean =>
  formatAction(a) === formatAction(b);

function checkNextAction(response: NextActionResponseFields, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: 'custom', path, message });
  const asksForPage = requestsPageState(response);

  let action: ParsedAction | undefined;
  if (response.action !== undefined) {
    const parsed = safeParseAction(response.action);
    if (parsed.ok) action = parsed.action;
    else issue(['action'], `not a valid action: ${parsed.error.message}`);
  }
  if (response.action === undefined && response.actionDetails === undefined) {
    if (!asksForPage) {
      issue(
        ['action'],
        'action is required unless the response sets needs_full_dom, needs_screenshot or needs_snapshot',
      );
    }
  } else if (response.action === undefined) {
    issue(['action'], 'action and actionDetails are sent together');
  } else if (response.actionDetails === undefined) {
    issue(['actionDetails'], 'action and actionDetails are sent together');
  } else if (action && !sameAction(action, response.actionDetails)) {
    issue(['actionDetails'], `actionDetails does not match action ${response.action}`);
  }

  const chain = response.actions;
  if (chain) {
    if (asksForPage) issue(['actions'], 'a response asking for page state carries no chain');
    chain.forEach((item, i) => {
      if (item.index !== i)
        issue(['actions', i, 'index'], `chain indexes run 0, 1, 2…; expected ${i}`);
      const parsed = safeParseAction(item.action);
      if (!parsed.ok) {
        issue(['actions', i, 'action'], `not a valid action: ${parsed.error.message}`);
      } else if (!isChainableAction(parsed.action)) {
        issue(['actions', i, 'action'], `${parsed.action.name} cannot be chained`);
      } else if (i === 0 && action && !sameAction(action, parsed.action)) {
        // Clients that ignore chains execute `action`, so it must be the chain's first step.
        issue(['action'], 'action must equal actions[0].action when a chain is sent');
      }
    });
    if (response.chainMetadata && response.chainMetadata.totalActions !== chain.length) {
      issue(['chainMetadata', 'totalActions'], `must equal actions.length (${chain.length})`);
    }
  } else if (response.chainMetadata) {
    issue(['actions'], 'chainMetadata is only sent with actions');
  }
}

/** The next step of a task: an action (or chain) to execute, or a request for page state. */
export const NextActionResponse = NextActionResponseFields.superRefine(checkNextAction);
export type NextActionResponse = z.infer<typeof NextActionResponse>;

/** The agent needs information only the user has (ASK_USER / dynamic interrupt). */
export const NeedsUserInputResponse = z.object({
  needsUserInput: z.literal(true),
  message: z.string().min(1).meta({ description: 'The question to show the user.' }),
  missingInformation: z.array(z.string()),
  sessionId: SessionId,
  taskId: TaskId.nullable().optional().meta({
    description:
      'The task the question pauses: send the answer with it (and the sessionId) to continue that task. null/absent only from servers that created no task.',
  }),
  thought: z.string().optional(),
  usage: Usage.optional(),
});
export type NeedsUserInputResponse = z.infer<typeof NeedsUserInputResponse>;

/** Discriminated by `needsUserInput`: `true` only on NeedsUserInputResponse. */
export const InteractResponse = z.discriminatedUnion('needsUserInput', [
  NeedsUserInputResponse,
  NextActionResponse,
]);
export type InteractResponse = z.infer<typeof InteractResponse>;

export function isNeedsUserInput(response: InteractResponse): response is NeedsUserInputResponse {
  return response.needsUserInput === true;
}

// ------------------------------------------------------------------ task recovery

export const ActiveTaskParams = z.object({ sessionId: SessionId });
export type ActiveTaskParams = z.infer<typeof ActiveTaskParams>;

export const ActiveTaskQuery = z.object({
  url: PageUrl.optional().meta({ description: 'Current tab URL; narrows the match.' }),
});
export type ActiveTaskQuery = z.infer<typeof ActiveTaskQuery>;

/** GET /api/session/{sessionId}/task/active: the safety net when the client lost its taskId. */
export const ActiveTaskResponse = z.object({
  taskId: TaskId,
  query: z.string(),
  status: TaskStatus,
  currentStepIndex: z.number().int().nonnegative(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  url: z.string().optional(),
});
export type ActiveTaskResponse = z.infer<typeof ActiveTaskResponse>;

// ------------------------------------------------------------------ cancel

/** POST /api/tasks/{taskId}/cancel: the task as it is now, cancelled. */
export const CancelTaskResponse = z.object({
  taskId: TaskId,
  status: z.literal('cancelled'),
});
export type CancelTaskResponse = z.infer<typeof CancelTaskResponse>;
