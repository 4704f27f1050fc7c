import {
  AdminTaskListQuery,
  TaskStatus,
  type AdminTaskList,
  type MetricsResponse,
} from '@tandem/contracts';
import { requireAdminPage } from '../../../server/admin-page-auth';
import { fieldErrors } from '../../../server/http-error';
import { formatInt, formatMs, formatTime, formatUsd } from '../_components/format';
import { KpiCards } from '../_components/kpi-cards';
import { clientErrorMessage, ReportError } from '../_components/report-error';
import { formParams, pagePath, type SearchParams } from '../_components/search-params';
import { WindowForm } from '../_components/window-form';

export const metadata = { title: 'Tasks · Tandem admin' };

export default async function TasksPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await formParams(searchParams);
  const { auth, admin } = await requireAdminPage(pagePath('/admin/tasks', params));
  const parsed = AdminTaskListQuery.safeParse(params);
  let list: AdminTaskList | null = null;
  let metrics: MetricsResponse | null = null;
  let error: string | null = null;
  if (!parsed.success) {
    error = fieldErrors(parsed.error)
      .map((f) => `${f.path}: ${f.message}`)
      .join('; ');
  } else {
    try {
      [list, metrics] = await Promise.all([
        admin.tasks(auth.tenantId, parsed.data),
        // KPIs describe the whole window, whatever page of the list is shown.
        admin.metrics(auth.tenantId, { from: parsed.data.from, to: parsed.data.to }),
      ]);
    } catch (caught) {
      error = clientErrorMessage(caught);
    }
  }
  const status = params.status ?? '';
  const olderHref = list?.nextCursor
    ? `/admin/tasks?${new URLSearchParams({ ...params, cursor: list.nextCursor }).toString()}`
    : null;

  return (
    <>
      <h1>Tasks</h1>
      <WindowForm action="/admin/tasks" window={list?.window ?? null}>
        <label>
          Status
          <select name="status" defaultValue={status}>
            <option value="">Any</option>
            {TaskStatus.options.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </WindowForm>
      {error ? <ReportError message={error} /> : null}
      {metrics ? <KpiCards metrics={metrics} /> : null}
      {list ? <TaskTable list={list} /> : null}
      {list && list.items.length > 0 ? <RoundTripNote /> : null}
      {olderHref ? (
        <p>
          <a href={olderHref}>Older tasks →</a>
        </p>
      ) : null}
    </>
  );
}

/** What the "Round trips" column counts, for the column header's tooltip. */
const ROUND_TRIP_TITLE =
  'Answers from the server that sent the browser an action or a chain, the closing finish() included';

/**
 * The extension's live view counts differently (the review found "1 step" there against "2"
 * here for the same task), so the page says what it counts and how the two relate.
 */
function RoundTripNote() {
  return (
    <p className="muted note">
      <b>Round trips</b> counts the server&apos;s answers that sent the browser an action or a chain
      of actions, the closing <code>finish()</code> included. The extension&apos;s live view leaves
      that <code>finish()</code> out of its <i>steps</i> (one action then <code>finish()</code>: 1
      step there, 2 round trips here) and counts every <i>request</i>. A <i>plan step</i> (on a
      task&apos;s trace) is an item of the task&apos;s plan and can take several round trips.
    </p>
  );
}

function TaskTable({ list }: { list: AdminTaskList }) {
  if (list.items.length === 0) return <p className="muted">No tasks in this window.</p>;
  return (
    <table aria-label="Tasks">
      <thead>
        <tr>
          <th>Created</th>
          <th>Goal</th>
          <th>Status</th>
          <th>Complexity</th>
          <th className="num">
            <abbr title={ROUND_TRIP_TITLE}>Round trips</abbr>
          </th>
          <th className="num">Corrections</th>
          <th className="num">Tokens</th>
          <th className="num">Cost</th>
          <th className="num">Server time</th>
        </tr>
      </thead>
      <tbody>
        {list.items.map((task) => (
          <tr key={task.id}>
            <td>{formatTime(task.createdAt)}</td>
            <td>
              <a href={`/admin/tasks/${encodeURIComponent(task.id)}`}>{task.query}</a>
              <div className="muted">{task.url}</div>
            </td>
            <td>
              <span className={`badge ${task.status}`}>{task.status}</span>
            </td>
            <td>{task.complexity ?? '—'}</td>
            <td className="num">{formatInt(task.steps)}</td>
            <td className="num">{formatInt(task.corrections)}</td>
            <td className="num">{formatInt(task.usage.totalTokens)}</td>
            <td className="num">{formatUsd(task.usage.costUsd)}</td>
            <td className="num">{formatMs(task.durationMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
