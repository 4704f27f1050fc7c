// The knowledge admin page's forms post here (POST /admin/knowledge/actions, field `action`):
// index a site, cancel or retry a job, re-index or delete a document, save the allowed domains. Same
// checks as the pages (the admin cookie's key, role admin) plus the sign-in form's same-origin
// rule, then the same work as the /api/knowledge routes, scoped to the key's tenant. Every
// outcome is a 303 back to the page with `notice` or `error`, so a reload never re-posts.
import { IndexLinkRequest, KnowledgeSettingsView } from '@tandem/contracts';
import type { z } from 'zod';
import { adminFormAuth } from '../../../../server/admin-form';
import type { AuthContext } from '../../../../server/auth';
import { fieldErrors, mapError } from '../../../../server/http-error';
import { seeOther } from '../../../../server/key-session';
import { isFinished } from '../../../../server/knowledge-jobs';
import type { Runtime } from '../../../../server/runtime';

export const KNOWLEDGE_PAGE = '/admin/knowledge';

/** Back to the page with a message; `keep`: what the form had, so a refusal does not clear it. */
const back = (kind: 'notice' | 'error', message: string, keep: Record<string, string> = {}) =>
  seeOther(`${KNOWLEDGE_PAGE}?${new URLSearchParams({ ...keep, [kind]: message }).toString()}`);

/** The crawl form's fields as sent, to fill it in again after an error. */
const INDEX_FORM_FIELDS = ['url', 'strategy', 'maxPages', 'maxDepth'] as const;

function indexFormValues(form: FormData): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of INDEX_FORM_FIELDS) {
    const value = text(form, name);
    // A URL longer than the form allows is not worth a redirect this long.
    if (value !== undefined && value.length <= 2048) kept[name] = value;
  }
  return kept;
}

const text = (form: FormData, name: string): string | undefined => {
  const value = form.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/** A number field: blank = the contract's default; anything else is checked by the schema. */
const num = (form: FormData, name: string): number | undefined => {
  const value = text(form, name);
  return value === undefined ? undefined : Number(value);
};

const invalid = (error: z.ZodError): string =>
  fieldErrors(error)
    .map((f) => `${f.path}: ${f.message}`)
    .join('; ');

type Outcome = { notice: string } | { error: string };

async function indexSite(runtime: Runtime, auth: AuthContext, form: FormData): Promise<Outcome> {
  const parsed = IndexLinkRequest.safeParse({
    url: text(form, 'url'),
    strategy: text(form, 'strategy'),
    maxPages: num(form, 'maxPages'),
    maxDepth: num(form, 'maxDepth'),
  });
  if (!parsed.success) return { error: `Cannot index: ${invalid(parsed.error)}` };
  const job = await runtime.knowledge.jobs.start(auth.tenantId, auth.userId, parsed.data);
  return { notice: `Indexing ${job.url} (${job.strategy}, job ${job.id}).` };
}

async function cancelJob(runtime: Runtime, auth: AuthContext, form: FormData): Promise<Outcome> {
  const jobId = text(form, 'jobId') ?? '';
  const job = await runtime.store.knowledgeJobs.get(auth.tenantId, jobId);
  if (!job) return { error: 'No such knowledge job.' };
  const which = job.upload ? `upload of ${job.upload.fileName}` : `crawl of ${job.url}`;
  const what = `The ${which}`;
  // A job that ended meanwhile stays as it ended (cancelling it again is no error).
  if (isFinished(job)) return { notice: `${what} had already ${job.status}.` };
  const cancelled = await runtime.knowledge.jobs.cancel(auth.tenantId, jobId);
  return cancelled?.status === 'cancelled'
    ? { notice: `Cancelled the ${which}.` }
    : { notice: `${what} had already ${cancelled?.status ?? job.status}.` };
}

async function retryJob(runtime: Runtime, auth: AuthContext, form: FormData): Promise<Outcome> {
  const jobId = text(form, 'jobId') ?? '';
  const job = await runtime.store.knowledgeJobs.get(auth.tenantId, jobId);
  if (!job) return { error: 'No such knowledge job.' };
  if (job.kind === 'upload') {
    const name = job.upload?.fileName ?? 'the file';
    const queued = await runtime.knowledge.uploads.retry(auth.tenantId, jobId);
    if (queued) return { notice: `Reading ${name} again from its stored copy.` };
    return job.status === 'failed'
      ? { error: `${name} cannot be retried (${job.error ?? 'failed'}): upload it again.` }
      : { notice: `The upload of ${name} is ${job.status}: nothing to retry.` };
  }
  const queued = await runtime.knowledge.jobs.retry(auth.tenantId, jobId);
  if (queued) return { notice: `Retrying the crawl of ${job.url} from where it stopped.` };
  return job.status === 'failed'
    ? {
        error: `The crawl of ${job.url} cannot be retried (${job.error ?? 'failed'}): index it again.`,
      }
    : { notice: `The crawl of ${job.url} is ${job.status}: nothing to retry.` };
}

async function reindexDocument(
  runtime: Runtime,
  auth: AuthContext,
  form: FormData,
): Promise<Outcome> {
  const document = await runtime.store.knowledge.getDocument(
    auth.tenantId,
    text(form, 'documentId') ?? '',
  );
  if (!document) return { error: 'No such knowledge document.' };
  const url = document.sourceUrl;
  if (!url || !/^https?:\/\//.test(url)) {
    return { error: `“${document.title}” was uploaded: upload the file again to update it.` };
  }
  // As POST /api/knowledge/documents/{id}/reindex: the page again, as a one-page crawl.
  const job = await runtime.knowledge.jobs.start(auth.tenantId, auth.userId, {
    url,
    strategy: 'single',
    maxPages: 1,
    maxDepth: 0,
    domain: document.domain,
  });
  return { notice: `Re-indexing ${url} (job ${job.id}).` };
}

async function deleteDocument(
  runtime: Runtime,
  auth: AuthContext,
  form: FormData,
): Promise<Outcome> {
  const id = text(form, 'documentId') ?? '';
  const document = await runtime.store.knowledge.getDocument(auth.tenantId, id);
  if (!document || !(await runtime.store.knowledge.deleteDocument(auth.tenantId, id))) {
    return { error: 'No such knowledge document.' };
  }
  return { notice: `Deleted “${document.title}” and its chunks.` };
}

async function saveSettings(runtime: Runtime, auth: AuthContext, form: FormData): Promise<Outcome> {
  const lines = (text(form, 'allowedDomains') ?? '').split(/[\s,]+/).filter((d) => d !== '');
  const parsed = KnowledgeSettingsView.safeParse({ allowedDomains: lines });
  if (!parsed.success) {
    // "allowedDomains.2" says little on a form: name the line instead.
    const problems = parsed.error.issues.map((issue) => {
      const index = issue.path[1];
      return typeof index === 'number'
        ? `“${lines[index]}”: ${issue.message}`
        : `${issue.path.join('.') || 'allowed domains'}: ${issue.message}`;
    });
    return { error: `Allowed domains not saved: ${problems.join('; ')}` };
  }
  const settings = await runtime.store.knowledge.updateSettings(auth.tenantId, {
    allowedDomains: [...new Set(parsed.data.allowedDomains)],
  });
  return {
    notice:
      settings.allowedDomains.length === 0
        ? 'Allowed domains cleared: knowledge from every site is used and any site may be crawled.'
        : `Allowed domains saved: ${settings.allowedDomains.join(', ')}.`,
  };
}

/**
 * Refusals whose message is for the admin (a private or not-allowed URL, a full quota).
 * Matched by name, as http-error.ts matches its errors: the production bundle can hold two
 * copies of a class, and `instanceof` fails across them (the crawl check throws from the
 * runtime's chunk, not this route's).
 */
const REFUSALS = new Set(['CrawlRefusedError', 'QuotaExceededError']);

const refusal = (error: unknown): string | null =>
  error instanceof Error && REFUSALS.has(error.name) ? error.message : null;

const ACTIONS: Record<
  string,
  (runtime: Runtime, auth: AuthContext, form: FormData) => Promise<Outcome>
> = {
  index: indexSite,
  cancel: cancelJob,
  retry: retryJob,
  reindex: reindexDocument,
  delete: deleteDocument,
  settings: saveSettings,
};

export async function handleKnowledgeAction(runtime: Runtime, request: Request): Promise<Response> {
  const auth = await adminFormAuth(runtime, request, KNOWLEDGE_PAGE);
  if (auth instanceof Response) return auth;
  const form = await request.formData().catch(() => null);
  const action = form ? text(form, 'action') : undefined;
  // Own keys only: `constructor` is not an action.
  const run = action !== undefined && Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  if (!form || !run) return back('error', 'Unknown action.');
  const keep = action === 'index' ? indexFormValues(form) : {};
  try {
    const outcome = await run(runtime, auth, form);
    return 'notice' in outcome
      ? back('notice', outcome.notice)
      : back('error', outcome.error, keep);
  } catch (error) {
    const refused = refusal(error);
    if (refused !== null) return back('error', refused, keep);
    const mapped = mapError(error);
    if (mapped.unexpected) {
      runtime.log.error('knowledge admin action failed', { action, error });
    }
    return back('error', mapped.body.error.message, keep);
  }
}
