// An in-memory ModelProvider for unit tests of the client's policies: each attempt takes the
// next scripted answer (text, or a function that may throw a ProviderError), and every request
// the client sent is kept for assertions.
import type { LlmUsage } from '../port';
import type { ModelProvider, ProviderRequest } from '../provider';

export type FakeAnswer = (request: ProviderRequest) => Promise<string> | string;

export const tokens = (total: number): LlmUsage => ({
  inputTokens: total,
  outputTokens: 0,
  cachedInputTokens: 0,
  thinkingTokens: 0,
  totalTokens: total,
});

export function fakeProvider(
  answers: FakeAnswer[],
  options: { answeringModel?: (requested: string) => string; usagePerAnswer?: number } = {},
): { provider: ModelProvider; seen: ProviderRequest[] } {
  const seen: ProviderRequest[] = [];
  const provider: ModelProvider = {
    name: 'SCRIPTED',
    modelFor: (node) => `model-${node}`,
    async complete(request) {
      seen.push(request);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('fake provider: no more answers');
      return {
        text: await answer(request),
        usage: tokens(options.usagePerAnswer ?? 10),
        model: options.answeringModel?.(request.model) ?? request.model,
      };
    },
  };
  return { provider, seen };
}
