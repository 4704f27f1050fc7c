// The document service's refusals reach clients exactly as the interact flow's do: same status,
// same body, same headers, same "unexpected" verdict (which decides the error log and Sentry),
// for every code in the contract, and for a copy of the class from another bundle chunk.
import { InteractError } from '@tandem/agent';
import { ErrorCode } from '@tandem/contracts';
import { DocumentError } from '@tandem/documents';
import { LlmCallError } from '@tandem/llm';
import { describe, expect, it } from 'vitest';
import { mapError } from './http-error';

describe('mapError', () => {
  it.each(ErrorCode.options)('maps a DocumentError %s as it maps an InteractError', (code) => {
    const interact = mapError(new InteractError(code, `Refused: ${code}.`));
    expect(mapError(new DocumentError(code, `Refused: ${code}.`))).toEqual(interact);
    const otherCopy = Object.assign(new Error(`Refused: ${code}.`), {
      name: 'DocumentError',
      code,
    });
    expect(mapError(otherCopy)).toEqual(interact);
  });

  it('does not trust a code it does not know, from a copy matched by name', () => {
    const forged = Object.assign(new Error('x'), { name: 'DocumentError', code: 'NOPE' });
    expect(mapError(forged)).toMatchObject({ status: 500, unexpected: true });
  });

  it('answers a model that failed 502 LLM_ERROR (resend it), one that refused 422 LLM_REFUSED', () => {
    const failed = (retryable: boolean) =>
      new LlmCallError('GOOGLE call for extraction failed', {
        node: 'extraction',
        provider: 'GOOGLE',
        model: 'gemini-2.5-flash',
        retryable,
      });
    expect(mapError(failed(true))).toMatchObject({ status: 502, unexpected: true });
    const refused = mapError(failed(false));
    expect(refused).toMatchObject({ status: 422, unexpected: false });
    expect(JSON.stringify(refused)).toContain('LLM_REFUSED');
  });
});
