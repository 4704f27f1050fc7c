import { EXTRACTION_LIMITS, endpoints } from '@tandem/contracts';
import { createRoute } from '../../../server/create-route';
import { extractContent } from './_lib/extract-content';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The extractor for scripts (docs/specs.md, "extraction overhaul"): HTML or Markdown in,
// schema-checked data out.
export const POST = createRoute(endpoints.extract, {
  spendsTokens: true,
  maxBodyBytes: EXTRACTION_LIMITS.bodyBytes,
  handler: extractContent,
});
