// What the graph's nodes receive: the LLM client, web search, a logger and the limits. Built
// once per server process by the service; nodes never construct any of it.
import type { Logger, Tracing } from '@tandem/observability';
import type { ExtractionService } from '@tandem/extraction';
import type { SkillsService } from '@tandem/knowledge';
import type { CollectService } from './collect/collect-service';
import type { LlmClient } from '@tandem/llm';
import type { RoutineRepository } from '@tandem/store';
import type { WebSearch } from './web-search/port';

export interface AgentLimits {
  /** MAX_STEPS_PER_TASK (docs/specs.md, "limits fail the task with a 400"). */
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
  log: Logger;
  limits: AgentLimits;
  /**
   * LangFuse spans per node and scores (docs/specs.md, "What's Traced"); absent or disabled: no
   * tracing.
   */
  tracing?: Tracing;
  /**
   * Streaming extraction (docs/specs.md, "streaming extraction"); absent: collect items from the
   * model are ignored.
   */
  collect?: CollectService;
  /**
   * Structured extraction (docs/specs.md, "extraction overhaul"); absent: an extract request is
   * refused to the model.
   */
  extraction?: Pick<ExtractionService, 'run' | 'cache' | 'learnData' | 'replayData' | 'findData'>;
  /**
   * The skills library (docs/specs.md, "episodic memory"); absent: no lessons are kept or shown.
   */
  skills?: Pick<SkillsService, 'hintsFor' | 'learn' | 'recordOutcome'>;
  /**
   * Saved routines (a verified run's steps, replayed without the model); absent: every task
   * runs with the model. The interact service gives its store's.
   */
  routines?: Pick<RoutineRepository, 'list' | 'findLatest' | 'get'>;
}
