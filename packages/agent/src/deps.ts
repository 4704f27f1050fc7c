// What the graph's nodes receive: the LLM client, web search, a logger and the limits. Built
// once per server process by the service; nodes never construct any of it.
import type { Tracing } from '@tandem/observability';
import type { ExtractionService } from '@tandem/extraction';
import type { SkillsService } from '@tandem/knowledge';
import type { CollectService } from './collect/collect-service';
import type { LlmClient } from './llm/port';
import type { WebSearch } from './web-search/port';

export interface AgentLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): AgentLogger;
}

export interface AgentLimits {
  /** Spec 003 Step 3.5: MAX_STEPS_PER_TASK. */
  maxStepsPerTask: number;
  /** Corrections of one step before the task fails. */
  maxRetriesPerStep: number;
  /** Failed verifications in a row before the task fails. */
  maxConsecutiveFailures: number;
  /** Velocity check: successes in a row without task_completed before finalize. */
  velocityLimit: number;
  /** goalAchieved = task_completed && confidence >= this. */
  goalConfidence: number;
  /** Longest chain sent in one response. */
  maxChainLength: number;
  /** Snapshots (outline/content) the model may ask for before acting on one step. */
  maxPageReadsPerStep: number;
}

export const DEFAULT_LIMITS: AgentLimits = {
  maxStepsPerTask: 50,
  maxRetriesPerStep: 3,
  maxConsecutiveFailures: 5,
  velocityLimit: 5,
  goalConfidence: 0.7,
  maxChainLength: 10,
  maxPageReadsPerStep: 2,
};

export interface AgentDeps {
  llm: LlmClient;
  webSearch: WebSearch;
  log: AgentLogger;
  limits: AgentLimits;
  /** LangFuse spans per node and scores (spec 003); absent or disabled: no tracing. */
  tracing?: Tracing;
  /** Streaming extraction (spec 000); absent: collect items from the model are ignored. */
  collect?: CollectService;
  /** Structured extraction (spec 001); absent: an extract request is refused to the model. */
  extraction?: Pick<ExtractionService, 'run' | 'cache'>;
  /** The skills library (spec 003 LLM Flow 6); absent: no lessons are kept or shown. */
  skills?: Pick<SkillsService, 'hintsFor' | 'learn' | 'recordOutcome'>;
}

export const silentLogger: AgentLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};
