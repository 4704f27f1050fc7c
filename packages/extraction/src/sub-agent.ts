// The extraction sub-agent (docs/specs.md, "the extraction sub-agent", "error recovery and
// aggregation"): stateless, Markdown in → data out. It does not navigate or click; the outer agent
// does. Content that fits one chunk is one call; larger content is chunked by structure and the
// chunks run in parallel (3 at a time by default), each retried by the kind of its failure, and the
// answers merged. A chunk that still fails leaves the result partial rather than failing it: what
// the other chunks found is kept.
import type { ExtractionError } from '@tandem/contracts';
import { chunkMarkdownByStructure, type MarkdownChunk } from '@tandem/markdown';
import { priceUsage } from '@tandem/observability';
import { z } from 'zod';
import { classifyError, EmptyExtractionError, errorMessage, isFatal } from './errors';
import type { ExtractionCallContext, ExtractionLlm, ExtractionLlmResult } from './llm';
import { mergeChunkData, type ChunkData, type MergeShape } from './merge';
import { mapWithConcurrency } from './pool';
import { EMPTY_HINT, extractionPrompt, extractionSystem } from './prompt';
import type { CheckedSchema } from './schema';

export interface ExtractionConfig {
  /** Largest chunk in characters; content up to this size is one call. */
  maxChunkSize: number;
  overlapLines: number;
  maxConcurrentChunks: number;
  /** Retries per chunk after its first attempt. */
  maxRetriesPerChunk: number;
  /** First rate-limit backoff; doubles per retry. */
  backoffMs: number;
  /** A timed-out chunk is split in half only while halves stay above this size. */
  minSplitSize: number;
}

export const DEFAULT_EXTRACTION_CONFIG: ExtractionConfig = {
  // ~5k tokens: a chunk's answer (every item it holds, as JSON) stays well inside a model's
  // output limit, which is what a 500-row table hits first.
  maxChunkSize: 20_000,
  overlapLines: 3,
  maxConcurrentChunks: 3,
  maxRetriesPerChunk: 2,
  backoffMs: 1_000,
  minSplitSize: 2_000,
};

export interface SubAgentInput {
  markdown: string;
  query: string;
  schema: CheckedSchema | null;
  context: ExtractionCallContext;
  signal?: AbortSignal;
  /** What the calls are billed as: EXTRACTION unless this is a replay's cross-check. */
  actionType?: 'EXTRACTION' | 'EXTRACTION_CHECK';
}

export interface SubAgentOutput {
  data: unknown;
  isPartial: boolean;
  errors: ExtractionError[];
  chunks: number;
  failedChunks: number;
  structuralContext: string[];
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costMicroUsd: number;
}

interface Tally {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costMicroUsd: number;
  errors: ExtractionError[];
}

interface ChunkJob {
  content: string;
  context: string;
  position: string;
  index: number;
}

type ChunkOutcome = { ok: true; parts: ChunkData[] } | { ok: false };

const TextAnswer = z.object({ text: z.string() });

export class ExtractionSubAgent {
  readonly config: ExtractionConfig;

  constructor(
    private readonly llm: ExtractionLlm,
    config: Partial<ExtractionConfig> = {},
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.config = { ...DEFAULT_EXTRACTION_CONFIG, ...config };
  }

  async extract(input: SubAgentInput): Promise<SubAgentOutput> {
    const chunks = this.chunk(input.markdown, this.config.maxChunkSize);
    const tally: Tally = {
      modelCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costMicroUsd: 0,
      errors: [],
    };
    const jobs: ChunkJob[] = chunks.map((chunk, index) => ({
      content: chunk.content,
      context: chunk.structuralContext,
      index,
      position: chunks.length > 1 ? positionOf(chunk, index, chunks.length) : '',
    }));
    const outcomes = await mapWithConcurrency(jobs, this.config.maxConcurrentChunks, (job) =>
      this.extractChunk(input, job, tally, 0),
    );
    const parts = outcomes.flatMap((outcome) => (outcome.ok ? outcome.parts : []));
    const failedChunks = outcomes.filter((outcome) => !outcome.ok).length;
    return {
      data: mergeChunkData(parts, shapeOf(input.schema)),
      isPartial: failedChunks > 0,
      errors: tally.errors,
      chunks: chunks.length,
      failedChunks,
      structuralContext: chunks.map((chunk) => chunk.structuralContext),
      modelCalls: tally.modelCalls,
      inputTokens: tally.inputTokens,
      outputTokens: tally.outputTokens,
      costMicroUsd: tally.costMicroUsd,
    };
  }

  private chunk(markdown: string, maxChunkSize: number): MarkdownChunk[] {
    return chunkMarkdownByStructure(markdown, {
      maxChunkSize,
      overlapLines: this.config.overlapLines,
    });
  }

  /** One chunk with its retries; a timeout splits it and extracts the halves instead. */
  private async extractChunk(
    input: SubAgentInput,
    job: ChunkJob,
    tally: Tally,
    depth: number,
  ): Promise<ChunkOutcome> {
    let strict = false;
    let hint: string | undefined;
    for (let retry = 0; ; retry++) {
      try {
        const data = await this.call(input, job, tally, { strict, hint });
        return { ok: true, parts: [{ data, context: job.context }] };
      } catch (error) {
        if (isFatal(error)) throw error;
        const kind = classifyError(error);
        // A second empty answer after the hint is the content's answer: nothing to extract.
        if (kind === 'empty' && hint !== undefined) return { ok: true, parts: [] };
        const exhausted = retry >= this.config.maxRetriesPerChunk || input.signal?.aborted === true;
        const split = kind === 'timeout' && !exhausted && this.canSplit(job, depth);
        tally.errors.push({
          kind,
          message: errorMessage(error),
          chunkIndex: job.index,
          retries: retry,
          retriesExhausted: exhausted,
          fallbackUsed: split,
        });
        if (exhausted) return { ok: false };
        if (split) return this.extractHalves(input, job, tally, depth);
        if (kind === 'validation') strict = true;
        if (kind === 'empty') hint = EMPTY_HINT;
        if (kind === 'rate_limit' || kind === 'provider') {
          await this.sleep(this.config.backoffMs * 2 ** retry);
        }
      }
    }
  }

  private canSplit(job: ChunkJob, depth: number): boolean {
    return depth < 3 && job.content.length / 2 >= this.config.minSplitSize;
  }

  private async extractHalves(
    input: SubAgentInput,
    job: ChunkJob,
    tally: Tally,
    depth: number,
  ): Promise<ChunkOutcome> {
    const halves = this.chunk(job.content, Math.ceil(job.content.length / 2));
    const outcomes = await Promise.all(
      halves.map((half) =>
        this.extractChunk(
          input,
          { ...job, content: half.content, position: `${job.position} (split)`.trim() },
          tally,
          depth + 1,
        ),
      ),
    );
    if (outcomes.some((outcome) => !outcome.ok)) return { ok: false };
    return { ok: true, parts: outcomes.flatMap((outcome) => (outcome.ok ? outcome.parts : [])) };
  }

  private async call(
    input: SubAgentInput,
    job: ChunkJob,
    tally: Tally,
    options: { strict: boolean; hint: string | undefined },
  ): Promise<unknown> {
    const structured = input.schema !== null;
    const schema = input.schema ? z.object({ data: input.schema.chunkZod }) : TextAnswer;
    const result: ExtractionLlmResult<{ data?: unknown; text?: string }> = await this.llm.generate({
      node: 'extraction',
      actionType: input.actionType ?? 'EXTRACTION',
      system: extractionSystem({ structured, strict: options.strict }),
      prompt: extractionPrompt({
        query: input.query,
        schema: input.schema?.json ?? null,
        content: job.content,
        position: job.position,
        ...(options.hint ? { hint: options.hint } : {}),
      }),
      schema,
      schemaName: structured ? 'extracted_data' : 'extracted_text',
      context: input.context,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    tally.modelCalls += 1;
    tally.inputTokens += result.usage.inputTokens;
    tally.outputTokens += result.usage.outputTokens;
    tally.costMicroUsd += priceUsage(result.model, result.usage);
    const data = structured ? result.output.data : (result.output.text ?? '');
    if (isEmpty(data)) throw new EmptyExtractionError('The model found nothing to extract.');
    return data;
  }
}

function positionOf(chunk: MarkdownChunk, index: number, total: number): string {
  const context = chunk.structuralContext ? `, ${chunk.structuralContext}` : '';
  return `part ${index + 1} of ${total}${context}`;
}

function shapeOf(schema: CheckedSchema | null): MergeShape {
  if (!schema) return 'text';
  return schema.isArray ? 'array' : 'object';
}

function isEmpty(data: unknown): boolean {
  if (data === null || data === undefined) return true;
  if (typeof data === 'string') return data.trim() === '';
  if (Array.isArray(data)) return data.length === 0;
  if (typeof data === 'object') {
    return Object.values(data).every(
      (value) => value === null || value === undefined || value === '',
    );
  }
  return false;
}
