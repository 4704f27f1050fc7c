// Results of executing one action. `action` is the canonical action string (formatAction), or
// the input as given when it did not parse.

export type ExecuteErrorCode =
  | 'not_found'
  | 'element_changed'
  | 'occluded'
  | 'disabled'
  | 'invalid_action'
  | 'unsupported'
  /** Refused by the task's limits: a site it may not go to, a secret off its site. */
  | 'blocked'
  | 'failed';

export type ExecuteResult =
  | {
      ok: true;
      action: string;
      /** What the executor had to do besides the plain action (e.g. re-found by fingerprint). */
      detail?: string;
    }
  | { ok: false; action: string; error: string; code: ExecuteErrorCode };

export class ActionFailure extends Error {
  constructor(
    readonly code: ExecuteErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ActionFailure';
  }
}

export const fail = (code: ExecuteErrorCode, message: string): never => {
  throw new ActionFailure(code, message);
};
