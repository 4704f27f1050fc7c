// The agent's refusals: an ErrorCode from the contracts and a message for the user. The HTTP
// status is the contract's (`ERROR_HTTP_STATUS`), never chosen here, so the server's error
// mapping, docs/api.md and the extension's retry logic all agree on it.
import { ERROR_HTTP_STATUS, type ErrorCode } from '@tandem/contracts';

export class InteractError extends Error {
  override readonly name = 'InteractError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = ERROR_HTTP_STATUS[code];
  }
}
