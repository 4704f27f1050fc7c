// POST /api/extract: one extraction outside any task. Billed to the key's tenant like the
// agent's (the LLM port's usage hook), stored as a result without a task.
import type { ExtractApiRequest, ExtractionResult } from '@tandem/contracts';
import { ExtractionInputError } from '@tandem/extraction';
import type { AuthContext } from '../../../../server/auth';
import { HttpError } from '../../../../server/http-error';
import type { Runtime } from '../../../../server/runtime';

export async function extractContent(ctx: {
  body: ExtractApiRequest;
  auth: AuthContext;
  runtime: Runtime;
}): Promise<ExtractionResult> {
  const { body, auth, runtime } = ctx;
  try {
    const out = await runtime.extraction.run({
      tenantId: auth.tenantId,
      taskId: null,
      context: { tenantId: auth.tenantId, userId: auth.userId },
      url: body.url ?? null,
      ...(body.html !== undefined ? { html: body.html } : { markdown: body.markdown ?? '' }),
      request: {
        query: body.query,
        ...(body.outputSchema ? { outputSchema: body.outputSchema } : {}),
        ...(body.cssSelector ? { cssSelector: body.cssSelector } : {}),
      },
      applySelector: true,
    });
    const stats = out.result.contentStats;
    if (stats.chunks > 0 && stats.failedChunks === stats.chunks) {
      throw new HttpError(
        'LLM_ERROR',
        `The language model failed on every part of the content (${out.result.errors.at(-1)?.message ?? 'no answer'}); retry the request.`,
      );
    }
    return out.result;
  } catch (error) {
    if (error instanceof ExtractionInputError) throw new HttpError('BAD_REQUEST', error.message);
    if (error instanceof Error && error.name === 'LlmNotConfiguredError') {
      throw new HttpError('LLM_NOT_CONFIGURED', error.message);
    }
    throw error;
  }
}
