// The admin service: report windows and the tenant scoping every admin read goes through, for
// the JSON routes and the server-rendered admin pages alike. The reports themselves live in
// @tandem/observability/reports (store in, contract shapes out).
import type {
  AdminTaskDetail,
  AdminTaskList,
  AdminTaskListQuery,
  BillingQuery,
  BillingResponse,
  MetricsQuery,
  MetricsResponse,
  ReportWindow,
  ReportWindowQuery,
} from '@tandem/contracts';
import {
  billingReport,
  dailyCostByActionType,
  isReportWindowError,
  metricsReport,
  resolveReportWindow,
  taskDetailReport,
  taskListReport,
  type DailyCostChart,
} from '@tandem/observability/reports';
import type { Store } from '@tandem/store';
import { HttpError } from './http-error';

/** The window of a report, or a 400 that says what is wrong with the one asked for. */
export function reportWindow(query: ReportWindowQuery, now?: Date): ReportWindow {
  try {
    return resolveReportWindow(query, now);
  } catch (error) {
    if (isReportWindowError(error)) throw new HttpError('BAD_REQUEST', error.message);
    throw error;
  }
}

export interface AdminService {
  billing(tenantId: string, query: BillingQuery): Promise<BillingResponse>;
  /** The billing table plus the daily cost per action type, over one window. */
  billingPage(
    tenantId: string,
    query: BillingQuery,
  ): Promise<{ report: BillingResponse; chart: DailyCostChart }>;
  metrics(tenantId: string, query: MetricsQuery): Promise<MetricsResponse>;
  tasks(tenantId: string, query: AdminTaskListQuery): Promise<AdminTaskList>;
  /** 404 for a task that does not exist in this tenant (another tenant's task included). */
  task(tenantId: string, taskId: string): Promise<AdminTaskDetail>;
}

export function createAdminService(store: Store, now: () => Date = () => new Date()): AdminService {
  return {
    billing: (tenantId, query) =>
      billingReport(store, tenantId, {
        window: reportWindow(query, now()),
        groupBy: query.groupBy,
      }),
    async billingPage(tenantId, query) {
      const window = reportWindow(query, now());
      const [report, chart] = await Promise.all([
        billingReport(store, tenantId, { window, groupBy: query.groupBy }),
        dailyCostByActionType(store, tenantId, window),
      ]);
      return { report, chart };
    },
    metrics: (tenantId, query) => metricsReport(store, tenantId, reportWindow(query, now())),
    tasks: (tenantId, query) =>
      taskListReport(store, tenantId, {
        window: reportWindow(query, now()),
        limit: query.limit,
        ...(query.status ? { status: query.status } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      }),
    async task(tenantId, taskId) {
      const detail = await taskDetailReport(store, tenantId, taskId);
      if (!detail) throw new HttpError('NOT_FOUND', `No task ${taskId}.`);
      return detail;
    },
  };
}
