// What an agent tool is here: a name, a description and a zod schema of its arguments (sent to
// the model as JSON Schema through the LLM port), and `run`, which does the real work against
// the store. The tools are made per run, bound to tenant, user and the records the run is about,
// so none of them takes an id the model could change.
import type { z } from 'zod';

export interface AgentTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  schema: S;
  /** Whether the tool changes stored data (the page shows writes apart from reads). */
  writes: boolean;
  /** The result the model reads. Throws ToolError for a call the model can fix. */
  run(input: z.output<S>): Promise<string>;
}

/**
 * A call the model can fix: invalid arguments, a path that does not exist, nothing extracted
 * yet. It goes back to the model as a tool error; anything else thrown is a failure of the run.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

export const isToolError = (error: unknown): error is ToolError =>
  error instanceof Error && error.name === 'ToolError';

/** One tool with its schema's type kept for `run`. */
export const defineTool = <S extends z.ZodType>(tool: AgentTool<S>): AgentTool<S> => tool;
