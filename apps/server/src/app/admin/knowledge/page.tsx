// The tenant's knowledge (issue 18 item 7): usage against quotas, crawl and upload jobs with their
// progress and errors, every source with its chunks, and the allowed domains. The forms post to
// ./actions; while a job is unfinished the page reloads itself every few seconds (no client
// script: the job SSE API wants a Bearer key, the page has a cookie).
import {
  CrawlStrategy,
  KNOWLEDGE_LIMITS,
  type KnowledgeDocumentView,
  type KnowledgeJobView,
  type KnowledgeUsageView,
} from '@tandem/contracts';
import { requireAdminPage } from '../../../server/admin-page-auth';
import { isFinished, jobView } from '../../../server/knowledge-jobs';
import { documentView, usageView } from '../../api/knowledge/_lib/views';
import { formatInt, formatTime } from '../_components/format';
import { ReportError } from '../_components/report-error';
import { formParams, pagePath, type SearchParams } from '../_components/search-params';
import { domainLabel, formatBytes, isHttpUrl, jobProgressBar, typeLabel } from './knowledge-format';

export const metadata = { title: 'Knowledge · Tandem admin' };

const ACTIONS = '/admin/knowledge/actions';
const REFRESH_SECONDS = 3;
const JOBS_SHOWN = 20;
const DOCUMENTS_SHOWN = 200;
const ERRORS_SHOWN = 20;

const STRATEGY_LABELS: Record<CrawlStrategy, string> = {
  single: 'Single page',
  sitemap: 'Sitemap',
  spider: 'Spider (follow links)',
};

export default async function KnowledgePage({ searchParams }: { searchParams: SearchParams }) {
  const params = await formParams(searchParams);
  const { auth, runtime } = await requireAdminPage(pagePath('/admin/knowledge', params));
  const { knowledge, knowledgeJobs } = runtime.store;
  const [records, counts, usage, settings, jobRecords] = await Promise.all([
    knowledge.listDocuments(auth.tenantId),
    knowledge.countChunks(auth.tenantId),
    knowledge.usage(auth.tenantId),
    knowledge.getSettings(auth.tenantId),
    knowledgeJobs.list(auth.tenantId, { limit: JOBS_SHOWN }),
  ]);
  // Newest first: what was just added is what the admin looks for.
  const documents = records.reverse().map((d) => documentView(d, counts));
  const jobs = jobRecords.map(jobView);
  const live = jobRecords.some((job) => !isFinished(job));
  const autoRefresh = live && params.refresh !== 'off';

  return (
    <>
      {autoRefresh ? <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} /> : null}
      <h1>Knowledge</h1>
      {params.notice ? (
        <p className="notice" role="status">
          {params.notice}
        </p>
      ) : null}
      {params.error ? <ReportError message={params.error} /> : null}
      <Usage
        usage={usageView(usage, runtime.knowledge.quotas)}
        embedder={runtime.knowledge.embedder?.id ?? null}
      />

      <h2>Index a site</h2>
      <IndexForm values={params} />

      <h2>Jobs: crawls and uploads</h2>
      {live ? (
        <p className="muted">
          {autoRefresh ? (
            <>
              A job is running: this page reloads every {REFRESH_SECONDS} s.{' '}
              <a href="/admin/knowledge?refresh=off">Stop reloading</a>
            </>
          ) : (
            <>
              A job is running. <a href="/admin/knowledge">Reload while it runs</a>
            </>
          )}
        </p>
      ) : null}
      <JobTable jobs={jobs} />

      <h2>Sources</h2>
      <DocumentTable documents={documents} />

      <h2>Allowed domains</h2>
      <DomainsForm allowedDomains={settings.allowedDomains} />
    </>
  );
}

function Usage({ usage, embedder }: { usage: KnowledgeUsageView; embedder: string | null }) {
  const near = (used: number, quota: number) => (used >= quota * 0.9 ? 'alert' : '');
  return (
    <section className="kpis" aria-label="Knowledge usage">
      <div className={`kpi ${near(usage.documents, usage.quotaDocuments)}`}>
        <span>Documents</span>
        <b>{formatInt(usage.documents)}</b>
        <span className="muted">of {formatInt(usage.quotaDocuments)} allowed</span>
      </div>
      <div className="kpi">
        <span>Chunks</span>
        <b>{formatInt(usage.chunks)}</b>
        <span className="muted">current (superseded ones not counted)</span>
      </div>
      <div className={`kpi ${near(usage.bytes, usage.quotaBytes)}`}>
        <span>Storage</span>
        <b>{formatBytes(usage.bytes)}</b>
        <span className="muted">of {formatBytes(usage.quotaBytes)} allowed</span>
      </div>
      <div className="kpi">
        <span>Embeddings</span>
        <b className="embedder">{embedder ?? 'off'}</b>
        <span className="muted">
          {embedder ? 'hybrid retrieval (BM25 + vectors)' : 'lexical retrieval only'}
        </span>
      </div>
    </section>
  );
}

/** `values`: what the form sent last, kept after a refusal (the action's redirect carries them). */
function IndexForm({ values }: { values: Record<string, string> }) {
  const strategy = CrawlStrategy.safeParse(values.strategy);
  return (
    <form method="post" action={ACTIONS} className="filters" aria-label="Index a site">
      <input type="hidden" name="action" value="index" />
      <label className="grow">
        URL
        <input
          name="url"
          type="url"
          required
          placeholder="https://docs.example.com/"
          maxLength={2048}
          defaultValue={values.url ?? ''}
        />
      </label>
      <label>
        Strategy
        <select name="strategy" defaultValue={strategy.success ? strategy.data : 'sitemap'}>
          {CrawlStrategy.options.map((s) => (
            <option key={s} value={s}>
              {STRATEGY_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Max pages
        <input
          name="maxPages"
          type="number"
          min={1}
          max={KNOWLEDGE_LIMITS.maxPagesPerJob}
          defaultValue={values.maxPages ?? 50}
          className="short"
        />
      </label>
      <label>
        Max depth
        <input
          name="maxDepth"
          type="number"
          min={0}
          max={KNOWLEDGE_LIMITS.maxDepth}
          defaultValue={values.maxDepth ?? 2}
          className="short"
        />
      </label>
      <button type="submit">Start crawl</button>
    </form>
  );
}

function JobTable({ jobs }: { jobs: KnowledgeJobView[] }) {
  if (jobs.length === 0) return <p className="muted">No crawls or uploads yet.</p>;
  return (
    <table aria-label="Crawl jobs" className="knowledge">
      <thead>
        <tr>
          <th>Site or file</th>
          <th>Status</th>
          <th>Progress</th>
          <th>Started / finished</th>
          <th>Errors</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <JobRow key={job.id} job={job} />
        ))}
      </tbody>
    </table>
  );
}

function JobRow({ job }: { job: KnowledgeJobView }) {
  if (job.upload) return <UploadRow job={job} upload={job.upload} />;
  const bar = jobProgressBar(job);
  const p = job.progress;
  const limits =
    job.strategy === 'single'
      ? 'one page'
      : `≤ ${formatInt(job.maxPages)} pages${job.strategy === 'spider' ? `, depth ${job.maxDepth}` : ''}`;
  const errorCount = job.errors.length + (job.error ? 1 : 0);
  return (
    <tr data-testid="knowledge-job" data-status={job.status}>
      <td>
        <a href={job.url}>{job.url}</a>
        <div className="muted">
          {STRATEGY_LABELS[job.strategy]} · {limits} · into {domainLabel(job.domain)}
        </div>
      </td>
      <StatusCell job={job} />
      <td className="progress-cell">
        <progress
          value={bar.value}
          max={bar.max}
          aria-label={`${bar.percent}% of ${job.url} fetched`}
        />{' '}
        <span>
          {formatInt(p.fetched)} / {formatInt(bar.max)} pages
        </span>
        <div className="muted counts">
          {formatInt(p.ingested)} ingested · {formatInt(p.unchanged)} unchanged ·{' '}
          {formatInt(p.skipped)} skipped · {formatInt(p.failed)} failed · {formatInt(job.pending)}{' '}
          pending · {formatInt(p.discovered)} discovered
        </div>
      </td>
      <TimesCell job={job} />
      <td className="errors-cell">
        {errorCount === 0 ? (
          <span className="muted">none</span>
        ) : (
          <details>
            <summary>
              {errorCount} error{errorCount === 1 ? '' : 's'}
            </summary>
            {job.error ? <p className="job-error">{job.error}</p> : null}
            <ul className="errors">
              {/* Newest first: the last one is what the crawl is stuck on. */}
              {[...job.errors]
                .reverse()
                .slice(0, ERRORS_SHOWN)
                .map((e, i) => (
                  <li key={`${e.at}-${i}`}>
                    <code>{e.url}</code> {e.message}
                  </li>
                ))}
            </ul>
          </details>
        )}
      </td>
      <ActionsCell job={job} />
    </tr>
  );
}

/** An uploaded file's job (POST /api/knowledge/ingest): the file, and what was stored from it. */
function UploadRow({
  job,
  upload,
}: {
  job: KnowledgeJobView;
  upload: NonNullable<KnowledgeJobView['upload']>;
}) {
  const { result } = upload;
  return (
    <tr data-testid="knowledge-upload" data-status={job.status}>
      <td>
        {upload.fileName}
        <div className="muted">
          Upload · {upload.mimeType ? typeLabel(upload.mimeType) : 'type unknown'} ·{' '}
          {formatBytes(upload.sizeBytes)} · into {domainLabel(job.domain)}
        </div>
      </td>
      <StatusCell job={job} />
      <td>
        {result
          ? result.unchanged
            ? 'unchanged since its last upload'
            : `${formatInt(result.chunksAdded)} chunks stored · ${formatInt(result.chunksSuperseded)} replaced`
          : job.status === 'queued' || job.status === 'running'
            ? 'reading the file'
            : '—'}
      </td>
      <TimesCell job={job} />
      <td className="errors-cell">
        {job.error ? <p className="job-error">{job.error}</p> : <span className="muted">none</span>}
      </td>
      <ActionsCell job={job} />
    </tr>
  );
}

// The cells a crawl row and an upload row share.
function StatusCell({ job }: { job: KnowledgeJobView }) {
  return (
    <td>
      <span className={`badge ${job.status}`}>{job.status}</span>
    </td>
  );
}

function TimesCell({ job }: { job: KnowledgeJobView }) {
  return (
    <td className="nowrap">
      {job.startedAt ? formatTime(job.startedAt) : 'not yet'}
      <div className="muted">
        {job.finishedAt ? formatTime(job.finishedAt) : job.startedAt ? 'running' : 'queued'}
      </div>
    </td>
  );
}

function ActionsCell({ job }: { job: KnowledgeJobView }) {
  return (
    <td>
      {job.status === 'queued' || job.status === 'running' ? (
        <JobAction action="cancel" jobId={job.id} label="Cancel" />
      ) : null}
      {job.status === 'failed' ? <JobAction action="retry" jobId={job.id} label="Retry" /> : null}
    </td>
  );
}

/** A button that posts one action on one job back to this page. */
function JobAction({ action, jobId, label }: { action: string; jobId: string; label: string }) {
  return (
    <form method="post" action={ACTIONS}>
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="jobId" value={jobId} />
      <button type="submit" className="secondary">
        {label}
      </button>
    </form>
  );
}

function DocumentTable({ documents }: { documents: KnowledgeDocumentView[] }) {
  if (documents.length === 0) {
    return (
      <p className="muted">No knowledge yet: upload a file through the API or index a site.</p>
    );
  }
  const shown = documents.slice(0, DOCUMENTS_SHOWN);
  return (
    <>
      {shown.length < documents.length ? (
        <p className="muted">
          The newest {formatInt(shown.length)} of {formatInt(documents.length)} sources.
        </p>
      ) : null}
      <table aria-label="Sources" className="knowledge">
        <thead>
          <tr>
            <th>Title</th>
            <th>Domain</th>
            <th>Source</th>
            <th>Type</th>
            <th className="num">Size</th>
            <th className="num">Chunks</th>
            <th>Status</th>
            <th>Updated</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {shown.map((document) => (
            <DocumentRow key={document.id} document={document} />
          ))}
        </tbody>
      </table>
    </>
  );
}

function DocumentRow({ document }: { document: KnowledgeDocumentView }) {
  const { sourceUrl } = document;
  const problems = document.error ? [document.error, ...document.warnings] : document.warnings;
  return (
    <tr data-testid="knowledge-document">
      <td>
        {isHttpUrl(sourceUrl) ? <a href={sourceUrl}>{document.title}</a> : document.title}
        {sourceUrl && !isHttpUrl(sourceUrl) ? <div className="muted">{sourceUrl}</div> : null}
      </td>
      <td>{domainLabel(document.domain)}</td>
      <td>{document.source}</td>
      <td className="nowrap" title={document.mimeType}>
        {typeLabel(document.mimeType)}
      </td>
      <td className="num">{formatBytes(document.sizeBytes)}</td>
      <td className="num">{formatInt(document.chunks)}</td>
      <td>
        <span className={`badge ${document.status}`}>{document.status}</span>
        {problems.length > 0 ? (
          <details>
            <summary>
              {document.error
                ? 'error'
                : `${problems.length} warning${problems.length === 1 ? '' : 's'}`}
            </summary>
            <ul className="errors">
              {problems.map((problem, i) => (
                <li key={i}>{problem}</li>
              ))}
            </ul>
          </details>
        ) : null}
      </td>
      <td className="nowrap">{formatTime(document.updatedAt)}</td>
      <td className="row-actions">
        {isHttpUrl(sourceUrl) ? (
          <form method="post" action={ACTIONS}>
            <input type="hidden" name="action" value="reindex" />
            <input type="hidden" name="documentId" value={document.id} />
            <button type="submit" className="secondary">
              Re-index
            </button>
          </form>
        ) : null}
        <details className="confirm">
          <summary>Delete…</summary>
          <form method="post" action={ACTIONS}>
            <input type="hidden" name="action" value="delete" />
            <input type="hidden" name="documentId" value={document.id} />
            <button type="submit" className="danger">
              Confirm delete
            </button>
          </form>
        </details>
      </td>
    </tr>
  );
}

function DomainsForm({ allowedDomains }: { allowedDomains: string[] }) {
  return (
    <form method="post" action={ACTIONS} className="domains" aria-label="Allowed domains">
      <input type="hidden" name="action" value="settings" />
      <p className="muted">
        Sites whose knowledge the agent uses and that may be crawled, one per line (a domain covers
        its subdomains). Empty: every site.
      </p>
      <textarea
        name="allowedDomains"
        aria-label="Allowed domains, one per line"
        rows={Math.min(10, Math.max(3, allowedDomains.length + 1))}
        defaultValue={allowedDomains.join('\n')}
        placeholder="docs.example.com"
        spellCheck={false}
      />
      <div>
        <button type="submit">Save allowed domains</button>
      </div>
    </form>
  );
}
