import { describe, expect, it } from 'vitest';
import { looksMultimodal } from './vision';

describe('looksMultimodal', () => {
  it.each([
    'gpt-4o-mini',
    'gpt-4.1',
    'o4-mini',
    'llava:13b',
    'qwen2.5vl:7b',
    'Qwen/Qwen2.5-VL-7B-Instruct',
    'llama3.2-vision:11b',
    'gemma3:12b',
    'pixtral-12b',
    'minicpm-v:8b',
  ])('knows %s reads images', (model) => {
    expect(looksMultimodal(model)).toBe(true);
  });

  it.each(['qwen2.5:7b-instruct', 'llama3.1:8b', 'mistral:7b', 'deepseek-r1:14b', 'phi4'])(
    'takes %s for text only',
    (model) => {
      expect(looksMultimodal(model)).toBe(false);
    },
  );
});
