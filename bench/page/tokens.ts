// Token counts in OpenAI's o200k encoding when a tokenizer is resolvable: gpt-tokenizer (the
// one to add to @tandem/bench), else js-tiktoken; otherwise bytes / 4, labelled as an estimate.
// Resolution goes through require.resolve so NODE_PATH can point at a tokenizer for one run.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export interface TokenCounter {
  label: string;
  exact: boolean;
  count(text: string): number;
}

const resolver = createRequire(import.meta.url);

async function tryImport(specifier: string): Promise<Record<string, unknown> | undefined> {
  try {
    return (await import(pathToFileURL(resolver.resolve(specifier)).href)) as Record<
      string,
      unknown
    >;
  } catch {
    return undefined;
  }
}

export async function tokenCounter(): Promise<TokenCounter> {
  const gpt = await tryImport('gpt-tokenizer/encoding/o200k_base');
  const encode = gpt?.encode;
  if (typeof encode === 'function') {
    return {
      label: 'o200k (gpt-tokenizer)',
      exact: true,
      count: (text) => (encode(text) as unknown[]).length,
    };
  }
  const lite = await tryImport('js-tiktoken/lite');
  const ranks = await tryImport('js-tiktoken/ranks/o200k_base');
  const Tiktoken = lite?.Tiktoken as
    (new (ranks: unknown) => { encode(text: string): number[] }) | undefined;
  if (Tiktoken && ranks?.default) {
    const encoder = new Tiktoken(ranks.default);
    return {
      label: 'o200k (js-tiktoken)',
      exact: true,
      count: (text) => encoder.encode(text).length,
    };
  }
  return {
    label: 'ESTIMATE bytes/4 (gpt-tokenizer not installed)',
    exact: false,
    count: (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / 4),
  };
}
