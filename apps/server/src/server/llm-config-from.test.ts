import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { llmConfigFrom } from './runtime';

describe('llmConfigFrom', () => {
  const openai = { LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'qwen2.5:7b-instruct' };

  it('leaves whether the model reads images to its name unless LLM_VISION says', () => {
    expect(llmConfigFrom(parseEnv(openai))).not.toHaveProperty('vision');
    expect(llmConfigFrom(parseEnv({ ...openai, LLM_VISION: 'true' })).vision).toBe(true);
    expect(llmConfigFrom(parseEnv({ ...openai, LLM_VISION: 'false' })).vision).toBe(false);
  });
});
