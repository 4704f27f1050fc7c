// The client used when no provider is configured: the server still starts and SIMPLE commands
// (resolved deterministically) still work; anything that needs a model fails with a message
// that says how to configure one.
import { LlmNotConfiguredError, type LlmClient } from './port';

export function createUnconfiguredLlmClient(): LlmClient {
  return {
    configured: false,
    provider: null,
    acceptsImages: () => false,
    generate: () => Promise.reject(new LlmNotConfiguredError()),
    converse: () => Promise.reject(new LlmNotConfiguredError()),
  };
}
