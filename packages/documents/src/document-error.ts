// The document service's refusals (unknown document, bad schema, no model, a run already going):
// an ErrorCode from the contracts and a message for the user. The HTTP status is the contract's
// (`ERROR_HTTP_STATUS`), never chosen here, so the server maps these exactly as it maps the
// interact flow's refusals, and docs/api.md and the clients' retry logic agree on it.
import { ERROR_HTTP_STATUS, type ErrorCode } from '@tandem/contracts';

export class DocumentError extends Error {
  // The server recognises it by this name as well as by class: a bundler may load this package
  // twice, and the other copy's class would fail instanceof.
  override readonly name = 'DocumentError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = ERROR_HTTP_STATUS[code];
  }
}
