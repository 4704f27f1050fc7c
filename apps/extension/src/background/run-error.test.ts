import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/api-client';
import { runErrorMessage } from './run-error';

describe('runErrorMessage', () => {
  it("ends the run with an ApiError's message, TASK_BUSY included (its retries ran out)", () => {
    expect(runErrorMessage(new ApiError(409, 'TASK_BUSY', 'busy'))).toBe('busy');
    expect(runErrorMessage(new ApiError(409, 'CONFLICT', 'taken'))).toBe('taken');
    expect(runErrorMessage(new ApiError(0, 'NETWORK', 'Cannot reach'))).toBe('Cannot reach');
  });

  it('points to Settings when the server refuses the key', () => {
    expect(runErrorMessage(new ApiError(401, 'UNAUTHORIZED', 'Invalid API key.'))).toBe(
      'Invalid API key. Check the server URL and API key in Settings.',
    );
  });

  it('uses the message of other errors and the text of anything else thrown', () => {
    expect(runErrorMessage(new Error('The page does not answer'))).toBe('The page does not answer');
    expect(runErrorMessage('plain')).toBe('plain');
    expect(runErrorMessage(42)).toBe('42');
  });
});
