// The document service's refusals reach clients exactly as the interact flow's do: same status,
// same body, same headers, same "unexpected" verdict (which decides the error log and Sentry),
// for every code in the contract, and for a copy of the class from another bundle chunk.
import { InteractError } from '@tandem/agent';
import { ErrorCode } from '@tandem/contracts';
import { DocumentError } from '@tandem/documents';
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
});
