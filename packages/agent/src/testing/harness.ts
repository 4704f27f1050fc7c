// Test harness for the interact service: a real libSQL store, the real graph and checkpointer,
// a scripted LLM (the only fake: the model is the external boundary), and request builders.
import {
  InteractRequest,
  type InteractRequestInput,
  type InteractResponse,
  type NextActionResponse,
  type SemanticNodeV3,
} from '@tandem/contracts';
import { ExtractionService } from '@tandem/extraction';
import { SkillsService } from '@tandem/knowledge';
import { createLibsqlStore, type Store } from '@tandem/store';
import { DEFAULT_LIMITS, type AgentLimits } from '../deps';
import type { LlmClient } from '@tandem/llm';
import { createScriptedLlm, type ScriptedLlm, type ScriptedStep } from '@tandem/llm/testing';
import { createUnconfiguredLlmClient } from '@tandem/llm';
import { createRagService } from '../rag/rag-service';
import {
  createInteractService,
  type InteractCaller,
  type InteractService,
} from '../service/interact-service';
import {
  createNoopTracing,
  createUsageService,
  silentLogger,
  type Tracing,
  type UsageService,
} from '@tandem/observability';
import { CollectService } from '../collect/collect-service';
import { TaskEventHub } from '../collect/event-hub';
import { createDisabledWebSearch } from '../web-search/disabled-web-search';
import type { WebSearch } from '../web-search/port';
import { PAGE_IS_ENOUGH } from './model-double';

export interface TestAgent {
  store: Store;
  service: InteractService;
  llm: LlmClient;
  scripted: ScriptedLlm | null;
  caller: InteractCaller;
  /** The usage service every LLM call reports to (drain() before reading usage logs). */
  usage: UsageService;
  /** Live task events (steps, collected items), as the SSE route reads them. */
  events: TaskEventHub;
  interact(input: InteractRequestInput): Promise<InteractResponse>;
  /** interact(), asserting an action response. */
  act(input: InteractRequestInput): Promise<NextActionResponse>;
}

export async function createTestAgent(
  options: {
    steps?: ScriptedStep[];
    unconfigured?: boolean;
    limits?: Partial<AgentLimits>;
    store?: Store;
    webSearch?: WebSearch;
    latencyMs?: number;
    /** Whether the scripted model reads images (hybrid mode's screenshot). Default true. */
    acceptsImages?: boolean;
    /** Tracing for the run (a LangFuse client pointed at a capture server); default no-op. */
    tracing?: Tracing;
    /**
     * A real client instead of the scripted one (a provider talking to a loopback fake); it is
     * given the run's usage hook.
     */
    llm?: (hooks: { usageHook: UsageService['recordUsage'] }) => LlmClient;
  } = {},
): Promise<TestAgent> {
  const store = options.store ?? (await createLibsqlStore({ url: ':memory:' }));
  const tracing = options.tracing ?? createNoopTracing();
  const usage = createUsageService({ store, tracing, log: silentLogger });
  const usageHook = usage.recordUsage;
  const events = new TaskEventHub();
  const scripted =
    options.unconfigured || options.llm
      ? null
      : createScriptedLlm(options.steps ?? [], {
          usageHook,
          ...(options.acceptsImages !== undefined ? { acceptsImages: options.acceptsImages } : {}),
          ...(options.latencyMs ? { latencyMs: options.latencyMs } : { zeroLatency: true }),
        });
  const llm: LlmClient = options.llm?.({ usageHook }) ?? scripted ?? createUnconfiguredLlmClient();
  const tenant = await store.tenants.create({
    name: `agent-test-${Math.random().toString(36).slice(2)}`,
  });
  const caller = { tenantId: tenant.id, userId: 'user-1' };
  const service = createInteractService({
    store,
    rag: createRagService(store),
    events,
    deps: {
      llm,
      webSearch: options.webSearch ?? createDisabledWebSearch(),
      log: silentLogger,
      tracing,
      collect: new CollectService(store, { events }),
      extraction: new ExtractionService({ llm, store }),
      skills: new SkillsService(store),
      limits: { ...DEFAULT_LIMITS, ...options.limits },
    },
  });
  const interact = (input: InteractRequestInput) =>
    service.interact(caller, InteractRequest.parse(input));
  return {
    store,
    service,
    llm,
    scripted,
    caller,
    usage,
    events,
    interact,
    async act(input) {
      const response = await interact(input);
      if (response.needsUserInput)
        throw new Error(`expected an action, got a question: ${response.message}`);
      return response;
    },
  };
}

/** A V3 request body for a page. */
export function pageRequest(
  url: string,
  tree: SemanticNodeV3[],
  extra: Partial<InteractRequestInput> = {},
): InteractRequestInput {
  return {
    url,
    domMode: 'semantic_v3',
    interactiveTree: tree,
    viewport: { width: 1280, height: 800 },
    pageTitle: 'Test',
    ...extra,
  };
}

/** The context analysis most scripted COMPLEX tasks start with: the page has what is needed. */
export function pageContextStep(reasoning = 'the page has what the goal needs'): ScriptedStep {
  return {
    node: 'context_analysis',
    output: { ...PAGE_IS_ENOUGH, reasoning },
  };
}

/** A scripted plan; steps are refinable unless they say otherwise. */
export function planStep(
  goal: string,
  steps: (string | { description: string; refinable: boolean })[],
): ScriptedStep {
  return {
    node: 'planning',
    output: {
      goal,
      steps: steps.map((s) => (typeof s === 'string' ? { description: s, refinable: true } : s)),
    },
  };
}
