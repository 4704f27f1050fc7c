// Crawling for the knowledge base (POST /api/knowledge/index-link).
//
// Our own small crawler rather than Crawlee: @crawlee/cheerio brings @crawlee/core with its
// storage layer (@crawlee/memory-storage request queues and datasets), got-scraping as a second
// HTTP client, a pinned cheerio 1.0.0-rc.12 next to ours, and its own run/persistence model.
// Our jobs must persist in our store (libSQL or MongoDB, through KnowledgeJobRepository) and
// resume from that record on any server, so Crawlee's state would be a second, competing copy.
// What we need on top of fetch is small and lives here: robots.txt (robots-parser), sitemaps
// (fast-xml-parser), links (cheerio), an SSRF guard (ipaddr.js), politeness and resumable state.
export { runCrawl } from './crawl';
export { MAX_JOB_ERRORS } from './crawl-state';
export { checkCrawlUrl, CrawlRefusedError, isPublicAddress } from './network-guard';
export type { CrawlUrlPolicy } from './network-guard';
export { CRAWL_DEFAULTS, DOCUMENT_TYPES } from './types';
export type { CrawlDeps, CrawledPage, CrawlOptions, PageOutcome } from './types';
export { hostCovers, isDomainAllowed, isSameSite, normaliseUrl } from './urls';
