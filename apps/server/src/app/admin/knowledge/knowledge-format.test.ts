import { describe, expect, it } from 'vitest';
import { domainLabel, formatBytes, isHttpUrl, jobProgressBar, typeLabel } from './knowledge-format';

const progress = { discovered: 0, fetched: 0, ingested: 0, unchanged: 0, skipped: 0, failed: 0 };

describe('knowledge admin formatting', () => {
  it('shows sizes in B, KB and MB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(5.25 * 1024 * 1024)).toBe('5.3 MB');
  });

  it('measures a job against min(maxPages, discovered), full once completed', () => {
    const running = { status: 'running' as const, maxPages: 10 };
    expect(jobProgressBar({ ...running, progress })).toEqual({ value: 0, max: 1, percent: 0 });
    expect(
      jobProgressBar({ ...running, progress: { ...progress, discovered: 40, fetched: 5 } }),
    ).toEqual({ value: 5, max: 10, percent: 50 });
    expect(
      jobProgressBar({ ...running, progress: { ...progress, discovered: 4, fetched: 1 } }),
    ).toEqual({ value: 1, max: 4, percent: 25 });
    expect(
      jobProgressBar({
        status: 'completed',
        maxPages: 10,
        progress: { ...progress, discovered: 12, fetched: 7 },
      }),
    ).toEqual({ value: 10, max: 10, percent: 100 });
  });

  it('names document types briefly, keeping unknown MIME types as they are', () => {
    expect(typeLabel('text/html; charset=utf-8')).toBe('HTML');
    expect(typeLabel('text/markdown')).toBe('Markdown');
    expect(typeLabel('image/png')).toBe('Image (PNG)');
    expect(typeLabel('application/x-unknown')).toBe('application/x-unknown');
  });

  it('links http(s) sources only and names tenant-wide knowledge', () => {
    expect(isHttpUrl('https://docs.example/a')).toBe(true);
    expect(isHttpUrl('upload://notes.md')).toBe(false);
    expect(isHttpUrl(null)).toBe(false);
    expect(domainLabel('')).toBe('all sites');
    expect(domainLabel('docs.example')).toBe('docs.example');
  });
});
