import {
  BillingGroupBy,
  BillingQuery,
  type BillingResponse,
  type ReportWindow,
} from '@tandem/contracts';
import type { DailyCostChart } from '@tandem/observability/reports';
import { requireAdminPage } from '../../../server/admin-page-auth';
import { fieldErrors } from '../../../server/http-error';
import { CostChart } from '../_components/cost-chart';
import { formatInt, formatUsd, windowText } from '../_components/format';
import { clientErrorMessage, ReportError } from '../_components/report-error';
import { formParams, pagePath, type SearchParams } from '../_components/search-params';
import { WindowForm } from '../_components/window-form';

export const metadata = { title: 'Billing · Tandem admin' };

const GROUP_LABELS: Record<BillingGroupBy, string> = {
  day: 'Day (UTC)',
  model: 'Model',
  actionType: 'Action type',
  user: 'User',
};

/** Cached tokens are counted in the input tokens too; the column says which part they are. */
const CACHED_TITLE =
  "Of the input tokens, those read from the provider's cache (billed at its cached rate)";

/** "Day (UTC)" → "day (UTC)": the heading reads "By day (UTC)", the acronym kept. */
const lowerFirst = (label: string): string => label.charAt(0).toLowerCase() + label.slice(1);

export default async function BillingPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await formParams(searchParams);
  const { auth, admin } = await requireAdminPage(pagePath('/admin/billing', params));
  const parsed = BillingQuery.safeParse(params);
  let data: { report: BillingResponse; chart: DailyCostChart } | null = null;
  let error: string | null = null;
  if (!parsed.success) {
    error = fieldErrors(parsed.error)
      .map((f) => `${f.path}: ${f.message}`)
      .join('; ');
  } else {
    try {
      data = await admin.billingPage(auth.tenantId, parsed.data);
    } catch (caught) {
      error = clientErrorMessage(caught);
    }
  }
  const groupBy = parsed.success ? parsed.data.groupBy : 'day';
  const window: ReportWindow | null = data?.report.window ?? null;

  return (
    <>
      <h1>Billing</h1>
      <WindowForm action="/admin/billing" window={window}>
        <label>
          Group by
          <select name="groupBy" defaultValue={groupBy}>
            {BillingGroupBy.options.map((g) => (
              <option key={g} value={g}>
                {GROUP_LABELS[g]}
              </option>
            ))}
          </select>
        </label>
      </WindowForm>
      {error ? <ReportError message={error} /> : null}
      {data ? <BillingReport report={data.report} chart={data.chart} /> : null}
    </>
  );
}

function BillingReport({ report, chart }: { report: BillingResponse; chart: DailyCostChart }) {
  const { totals } = report;
  return (
    <>
      <p className="muted">{windowText(report.window)}, from the token usage log.</p>
      <section className="summary" aria-label="Totals">
        <div>
          <span className="muted">Cost</span>
          <b data-testid="total-cost">{formatUsd(totals.costUsd)}</b>
        </div>
        <div>
          <span className="muted">LLM calls</span>
          <b>{formatInt(totals.calls)}</b>
        </div>
        <div>
          <span className="muted">Tokens</span>
          <b>{formatInt(totals.totalTokens)}</b>
        </div>
      </section>
      <h2>Daily cost by action type</h2>
      <CostChart chart={chart} />
      <h2>By {lowerFirst(GROUP_LABELS[report.groupBy])}</h2>
      {report.rows.length === 0 ? (
        <p className="muted">No LLM calls in this window.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{GROUP_LABELS[report.groupBy]}</th>
              <th className="num">Calls</th>
              <th className="num">Input tokens</th>
              <th className="num" title={CACHED_TITLE}>
                Cached
              </th>
              <th className="num">Output tokens</th>
              <th className="num">Total tokens</th>
              <th className="num">Cost (USD)</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.map((row) => (
              <tr key={row.key}>
                <td>{row.key === '' ? <span className="muted">(no user)</span> : row.key}</td>
                <td className="num">{formatInt(row.calls)}</td>
                <td className="num">{formatInt(row.inputTokens)}</td>
                <td className="num">{formatInt(row.cachedInputTokens)}</td>
                <td className="num">{formatInt(row.outputTokens)}</td>
                <td className="num">{formatInt(row.totalTokens)}</td>
                <td className="num" title={`${row.costMicroUsd} µUSD`}>
                  {formatUsd(row.costUsd)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td>Total</td>
              <td className="num">{formatInt(totals.calls)}</td>
              <td className="num">{formatInt(totals.inputTokens)}</td>
              <td className="num">{formatInt(totals.cachedInputTokens)}</td>
              <td className="num">{formatInt(totals.outputTokens)}</td>
              <td className="num">{formatInt(totals.totalTokens)}</td>
              <td className="num">{formatUsd(totals.costUsd)}</td>
            </tr>
          </tfoot>
        </table>
      )}
    </>
  );
}
