export {
  addSums,
  billingReport,
  dailyCostByActionType,
  withUsd,
  ZERO_SUMS,
  type BillingStore,
  type DailyCostChart,
  type UsageSums,
} from './billing';
export { splitChain } from './chain';
export { metricsReport, type MetricsStore } from './metrics';
export { nearestRank } from './percentile';
export { attributeCalls, taskDetailReport, taskListReport, type TaskReportStore } from './tasks';
export {
  daysOf,
  DAY_MS,
  isReportWindowError,
  ReportWindowError,
  resolveReportWindow,
} from './window';
