export { startDemoSites } from './server';
export type { DemoSites, DemoSitesOptions } from './server';
export { DEMO_API, DEMO_PAGES, DEMO_SITES } from './pages';
export type { DemoPage, DemoSite } from './pages';
export type { Patient } from './patients';
export { CANVAS_KIOSK, centreOf } from './canvas';
export type { PageRect } from './canvas';
export { JOB_BOARD, UNIDENTIFIED_JOB } from './jobs';
export type { Job, JobBoardPage } from './jobs';
export {
  CATALOG,
  PRICE_TABLE,
  PRODUCT_LIST_SCHEMA,
  PRODUCTS_PER_PAGE,
  SHIPPING_RATES,
  formatAmount,
  formatPrice,
  formatRating,
} from './catalog';
export type { CatalogPage, Currency, PriceRow, Product, StockStatus, TableCell } from './catalog';
export { DOCS_PAGES, DOCS_ROUTES, DOCS_SITEMAP_PAGES, DOCS_TRAPS } from './docs-site';
export { INJECT_API, INJECT_SINK, INJECTION_ATTACKS } from './inject-attacks';
export type { InjectionAttack, InjectionDefense } from './inject-attacks';
export type { PageEvent, SinkHit } from './inject';
export type { SentMessage, StaffMember } from './api';
export { DEMO_VARIANTS, isDemoVariant, parseVariantRequest } from './variants';
export type { DemoVariant, VariantRequest } from './variants';
export type { DocsPage } from './docs-site';
export { jobCardsIn, type JobCard } from './job-cards';
