export { startDemoSites } from './server';
export type { DemoSites, DemoSitesOptions } from './server';
export { DEMO_API, DEMO_PAGES, DEMO_SITES } from './pages';
export type { DemoPage, DemoSite } from './pages';
export type { Patient } from './patients';
export { JOB_BOARD, UNIDENTIFIED_JOB } from './jobs';
export type { Job, JobBoardPage } from './jobs';
