// Driving one tool-agent run for a service: its events become the spec's flat SSE events, each
// model call's cost is priced and added to the record as it happens (so a run that dies keeps
// the cost it ran up), and a failure is caught and reported instead of thrown: the writes made
// so far are in the store already.
import type { Logger } from '@tandem/observability';
import type { LlmUsage } from '@tandem/llm';
import { LlmCallError, LlmNotConfiguredError } from '@tandem/llm';

import { runToolAgent, type ToolAgentOptions } from './tool-agent';
import type { LlmMessage } from '@tandem/llm';

/** The events every run streams before its own `complete` event. */
export type RunEvent = { text: string } | { tool: string; input: unknown };

export interface RunOutcome {
  costMicroUsd: number;
  tokens: number;
  /** Model turns taken. */
  turns: number;
  /** The model was still calling tools when the turn limit ended the run. */
  stoppedAtLimit: boolean;
  /** What ended the run early, for the user; null when the model finished its turn. */
  failure: string | null;
  /**
   * The signal stopped the run (its worker lost the job, or the process is closing): another
   * attempt carries on from what was stored, so the end of this one is nobody's to record.
   */
  aborted: boolean;
}

export interface DriveOptions {
  agent: ToolAgentOptions;
  messages: LlmMessage[];
  /**
   * `id`: a write's history seq (the SSE id a client resumes from). With `agent.writeSeq`, a
   * write tool's event goes out once the tool has run, with the seq its result carries.
   */
  emit: (event: RunEvent, id?: number) => void;
  price: (model: string, usage: LlmUsage) => number;
  /** Adds one model call's cost to the record (an atomic increment). */
  addUsage: (usage: { costMicroUsd: number; tokens: number }) => Promise<void>;
  log: Logger;
  /** Stops the run between (and during) model calls. */
  signal?: AbortSignal;
}

/** What the user is told about a failure: the model's trouble in words, anything else plainly. */
export function describeFailure(error: unknown): string {
  if (error instanceof LlmCallError || error instanceof LlmNotConfiguredError) return error.message;
  if (error instanceof Error && error.name === 'GraphRecursionError') {
    return 'The agent took too many steps.';
  }
  return 'An internal error stopped the run.';
}

export async function driveRun(options: DriveOptions): Promise<RunOutcome> {
  const outcome: RunOutcome = {
    costMicroUsd: 0,
    tokens: 0,
    turns: 0,
    stoppedAtLimit: false,
    failure: null,
    aborted: false,
  };
  const pending: Promise<void>[] = [];
  // A write tool's event waits for its result. A turn's calls are all announced before the
  // tools run (one at a time, in order), so the results come in the order of the calls.
  const writeCalls: { tool: string; input: unknown }[] = [];
  const numbered = options.agent.writeSeq !== undefined;
  const writeTools = new Set(options.agent.tools.filter((t) => t.writes).map((t) => t.name));
  try {
    for await (const event of runToolAgent(options.agent, options.messages, options.signal)) {
      switch (event.kind) {
        case 'text':
          options.emit({ text: event.text });
          break;
        case 'tool':
          if (numbered && writeTools.has(event.tool))
            writeCalls.push({ tool: event.tool, input: event.input });
          else options.emit({ tool: event.tool, input: event.input });
          break;
        case 'usage': {
          const costMicroUsd = options.price(event.model, event.usage);
          outcome.costMicroUsd += costMicroUsd;
          outcome.tokens += event.usage.totalTokens;
          outcome.turns += 1;
          pending.push(
            options
              .addUsage({ costMicroUsd, tokens: event.usage.totalTokens })
              .catch((error: unknown) => options.log.error('run cost not recorded', { error })),
          );
          break;
        }
        case 'turn_limit':
          outcome.stoppedAtLimit = true;
          break;
        case 'tool_result': {
          if (event.isError)
            options.log.debug('tool error', { tool: event.tool, error: event.content });
          const index = writeCalls.findIndex((call) => call.tool === event.tool);
          if (index < 0) break;
          const [call] = writeCalls.splice(index, 1);
          if (!call) break;
          if (event.seq === undefined) options.emit(call);
          else options.emit(call, event.seq);
          break;
        }
      }
    }
  } catch (error) {
    if (options.signal?.aborted) {
      outcome.aborted = true;
    } else {
      options.log.warn('agent run failed', { error });
      outcome.failure = describeFailure(error);
    }
  }
  // Writes whose results never came (the run stopped first): still say they were called.
  for (const call of writeCalls) options.emit(call);
  if (options.signal?.aborted) outcome.aborted = true;
  await Promise.all(pending);
  return outcome;
}
