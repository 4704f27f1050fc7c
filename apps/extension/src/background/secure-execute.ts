// The one way the loop's actions reach the page: each action goes with the task's
// sites, which the page enforces on clicks and navigations; a secret's placeholder is filled in
// here, on the worker, only when the page is of the secret's sites, and the page checks those
// sites again at the moment of typing; and the reply is reported with the action as planned and
// every secret value redacted, so no value ever reaches the report the server reads.
import type { ExecuteReply } from '../shared/messages';
import { fillSecrets, redactSecrets, type StoredSecret } from '../shared/secrets';
import type { TabDriver } from './tab-driver';

export interface ExecutionLimits {
  /** The task's sites; empty: none known (a run from before the rule), no limit. */
  sites: readonly string[];
  secrets: readonly StoredSecret[];
  /** The page the step was decided on, whose site a secret must be for. */
  pageUrl: string;
}

export function securedExecute(
  tabs: Pick<TabDriver, 'execute'>,
  limits: ExecutionLimits,
): Pick<TabDriver, 'execute'> {
  return {
    async execute(tabId, action, observe): Promise<ExecuteReply> {
      const filled = fillSecrets(action, limits.secrets, limits.pageUrl);
      if (!filled.ok) return { ok: false, action, error: filled.error, code: 'blocked' };
      const reply = await tabs.execute(tabId, filled.action, observe, {
        ...(limits.sites.length > 0 ? { allowedSites: limits.sites } : {}),
        ...(filled.typeOnlyOn ? { typeOnlyOn: filled.typeOnlyOn } : {}),
      });
      return redactSecrets({ ...reply, action }, limits.secrets);
    },
  };
}
