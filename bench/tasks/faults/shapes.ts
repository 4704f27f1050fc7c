// The bodies of the injected faults, each as Gemini's REST API (`models/*:generateContent`, the
// non-streaming endpoint the server's SDK calls) really answers: google.rpc error bodies for the
// HTTP errors, and 200s whose candidate is unusable in the ways packages/llm's reader meets
// them (gemini-answer.ts): a safety stop with no content, no candidate at all, a MAX_TOKENS cut,
// text that is not JSON, and a body cut off mid-JSON.
import type { FaultKind } from './plan';

/** A fault the proxy answers without asking the model. */
export type StandaloneFault = Exclude<FaultKind, 'hang' | ForwardedFault>;
/** A fault made from the model's real answer, so the damage looks like the real thing. */
export type ForwardedFault = 'malformed-json' | 'truncated-body' | 'max-tokens';

export const isForwarded = (kind: FaultKind): kind is ForwardedFault =>
  kind === 'malformed-json' || kind === 'truncated-body' || kind === 'max-tokens';

export interface FaultReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const json = (status: number, body: object, headers: Record<string, string> = {}): FaultReply => ({
  status,
  headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
  body: JSON.stringify(body),
});

const rpcError = (code: number, status: string, message: string, details?: object[]) => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});

/** Gemini bills the prompt of a blocked or empty answer; chars / 4, as the scripted model counts. */
const promptUsage = (promptChars: number) => {
  const tokens = Math.ceil(promptChars / 4);
  return { promptTokenCount: tokens, totalTokenCount: tokens };
};

export function standaloneFault(kind: StandaloneFault, promptChars: number): FaultReply {
  switch (kind) {
    case 'http-500':
      return json(500, rpcError(500, 'INTERNAL', 'An internal error has occurred.'));
    case 'http-503':
      return json(
        503,
        rpcError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
      );
    case 'http-429':
      // The header is what the client reads; the RetryInfo detail is what Gemini also sends.
      return json(
        429,
        rpcError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).', [
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' },
        ]),
        { 'retry-after': '1' },
      );
    case 'safety':
      return json(200, {
        candidates: [
          {
            finishReason: 'SAFETY',
            index: 0,
            safetyRatings: [
              { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
            ],
          },
        ],
        usageMetadata: promptUsage(promptChars),
        modelVersion: 'gemini-2.5-flash',
      });
    case 'empty-candidates':
      return json(200, {
        candidates: [],
        usageMetadata: promptUsage(promptChars),
        modelVersion: 'gemini-2.5-flash',
      });
  }
}

interface Candidate {
  content?: { parts?: { text?: string }[] };
  finishReason?: string;
}
interface GenerateResponse {
  candidates?: Candidate[];
  usageMetadata?: Record<string, number>;
}

/** The text of the answer's first part, rewritten (the scripted model answers in one part). */
function withText(body: string, rewrite: (text: string) => string, finishReason?: string) {
  const response = JSON.parse(body) as GenerateResponse;
  const candidate = response.candidates?.[0];
  const part = candidate?.content?.parts?.[0];
  if (!candidate || !part || typeof part.text !== 'string') return body;
  part.text = rewrite(part.text);
  if (finishReason !== undefined) candidate.finishReason = finishReason;
  if (response.usageMetadata) {
    const output = Math.ceil(part.text.length / 4);
    const input = response.usageMetadata.promptTokenCount ?? 0;
    response.usageMetadata.candidatesTokenCount = output;
    response.usageMetadata.totalTokenCount = input + output;
  }
  return JSON.stringify(response);
}

/**
 * A model that writes a JavaScript object instead of JSON (unquoted keys, a trailing comma):
 * the kind of near-JSON a model emits when it ignores the response schema.
 */
const malformed = (text: string) =>
  text.replace(/"([A-Za-z_][A-Za-z0-9_]*)":/g, '$1: ').replace(/\}\s*$/, ',}');

/** The model's real reply (`upstream`, a 200's body) damaged the way `kind` says. */
export function forwardedFault(kind: ForwardedFault, upstream: string): FaultReply {
  const headers = { 'content-type': 'application/json; charset=UTF-8' };
  switch (kind) {
    case 'malformed-json':
      return { status: 200, headers, body: withText(upstream, malformed) };
    case 'max-tokens':
      // The output limit cut the answer mid-value; Gemini says so in finishReason.
      return {
        status: 200,
        headers,
        body: withText(upstream, (t) => t.slice(0, Math.floor(t.length / 2)), 'MAX_TOKENS'),
      };
    case 'truncated-body':
      // The connection ended cleanly but the body stops mid-JSON (a proxy or LB cut it).
      return { status: 200, headers, body: upstream.slice(0, Math.floor(upstream.length / 2)) };
  }
}
