// What the knowledge admin page shows for sizes, job progress and links, kept out of the JSX
// so it can be tested.
import type { KnowledgeJobView } from '@tandem/contracts';

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${oneDecimal.format(bytes / 1024)} KB`;
  return `${oneDecimal.format(bytes / 1024 / 1024)} MB`;
}

export interface JobProgressBar {
  value: number;
  max: number;
  percent: number;
}

/**
 * Pages fetched out of the pages the job can reach: min(maxPages, discovered). A finished job
 * is full whatever it found (robots.txt or the page cap may have left URLs unfetched).
 */
export function jobProgressBar(
  job: Pick<KnowledgeJobView, 'status' | 'maxPages' | 'progress'>,
): JobProgressBar {
  const max = Math.max(1, Math.min(job.maxPages, job.progress.discovered));
  const value = job.status === 'completed' ? max : Math.min(job.progress.fetched, max);
  return { value, max, percent: Math.round((value / max) * 100) };
}

export const isHttpUrl = (url: string | null): url is string =>
  url !== null && /^https?:\/\//i.test(url);

/** '' is tenant-wide knowledge: every site of the tenant reads it. */
export const domainLabel = (domain: string): string => (domain === '' ? 'all sites' : domain);

const TYPE_LABELS: Record<string, string> = {
  'text/html': 'HTML',
  'text/markdown': 'Markdown',
  'text/plain': 'Text',
  'text/csv': 'CSV',
  'application/pdf': 'PDF',
  'application/json': 'JSON',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint',
};

/** A short name for the document's type; the MIME type itself when there is none. */
export function typeLabel(mimeType: string): string {
  const base = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (TYPE_LABELS[base]) return TYPE_LABELS[base];
  if (base.startsWith('image/')) return `Image (${base.slice(6).toUpperCase()})`;
  if (base.startsWith('audio/')) return `Audio (${base.slice(6).toUpperCase()})`;
  return mimeType;
}
