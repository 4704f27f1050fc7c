// The tests' handle on the fake Gemini (fake-gemini.ts), which runs in Playwright's runner
// process: what the server asked the model, and holds on one answer.
import { CONTROL_PREFIX, type RecordedCall } from './fake-gemini';

export interface HeldCall {
  /** Settles with the held call once the server made it. */
  reached(): Promise<RecordedCall>;
  /** Lets the model answer; settles once the answer was sent to the server. */
  release(): Promise<void>;
}

export interface FakeGeminiControl {
  /** Every call so far, oldest first. */
  calls(): Promise<RecordedCall[]>;
  /** Holds the next `node` call whose goal contains `goal` until `release()`. */
  hold(node: string, goal: string): Promise<HeldCall>;
  /** Releases every hold (a test's cleanup: a failed test must not leave the server waiting). */
  releaseAll(): Promise<void>;
}

export function fakeGemini(url: string): FakeGeminiControl {
  const call = async <T>(
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; signal?: AbortSignal } = {},
  ): Promise<T> => {
    const { body, signal } = options;
    const res = await fetch(`${url}${CONTROL_PREFIX}${path}`, {
      method,
      ...(signal ? { signal } : {}),
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    if (!res.ok)
      throw new Error(`fake Gemini ${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    calls: async () => (await call<{ calls: RecordedCall[] }>('GET', '/calls')).calls,
    async hold(node, goal) {
      const { id } = await call<{ id: string }>('POST', '/holds', { body: { node, goal } });
      return {
        async reached(timeoutMs = 30_000) {
          const signal = AbortSignal.timeout(timeoutMs);
          try {
            return (await call<{ call: RecordedCall }>('GET', `/holds/${id}/reached`, { signal }))
              .call;
          } catch (error) {
            if (!signal.aborted) throw error;
            throw new Error(`no ${node} call for "${goal}" came within ${timeoutMs} ms`);
          }
        },
        release: async () => {
          await call('POST', `/holds/${id}/release`);
        },
      };
    },
    async releaseAll() {
      await call('POST', '/holds/release-all');
    },
  };
}
