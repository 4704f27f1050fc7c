// Page snapshots (docs/specs.md, "page snapshots"): the server asks for one when the semantic tree
// is not enough to understand the page (articles, tables), and the client answers on its next
// interact request. The same options drive `snapshot()` in @tandem/page, in the browser and on the
// server.
import { z } from 'zod';
import { formatCount } from './format-count';

export const SnapshotMode = z.enum(['interactive', 'outline', 'content']).meta({
  description:
    'interactive: clickable elements with @ref ids; outline: landmarks, sections, headings and semantic xpaths with word counts; content: the text of the sections grep selects.',
});
export type SnapshotMode = z.infer<typeof SnapshotMode>;

export const SnapshotFormat = z.enum(['tree', 'html', 'markdown']).meta({
  description:
    'How content mode renders sections: tree (one line per block, default), html (cleaned markup) or markdown. Interactive and outline output is always a tree.',
});
export type SnapshotFormat = z.infer<typeof SnapshotFormat>;

export const SNAPSHOT_TEXT_MAX_LENGTH = 2_000_000;
const PATTERN_MAX_LENGTH = 1_000;

/** A regex pattern as grep reads it; the u flag is tried first, then plain (as the page does). */
const compiles = (pattern: string, ignoreCase: boolean | undefined): boolean => {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, ignoreCase ? `${flags}i` : flags);
      return true;
    } catch {
      // Try the next flag set.
    }
  }
  return false;
};

export const GrepOptions = z
  .object({
    pattern: z.string().min(1).max(PATTERN_MAX_LENGTH),
    ignoreCase: z.boolean().optional().meta({ description: 'Case-insensitive (grep -i).' }),
    invert: z.boolean().optional().meta({
      description: 'Keep the lines that do not match (grep -v); content mode drops them.',
    }),
    fixedStrings: z
      .boolean()
      .optional()
      .meta({ description: 'The pattern is a literal string, not a regex (grep -F).' }),
  })
  .refine((grep) => grep.fixedStrings === true || compiles(grep.pattern, grep.ignoreCase), {
    error: 'grep pattern is not a valid regular expression',
    path: ['pattern'],
  });
export type GrepOptions = z.infer<typeof GrepOptions>;

export const SnapshotGrep = z
  .union([
    z
      .string()
      .min(1)
      .max(PATTERN_MAX_LENGTH)
      .refine((pattern) => compiles(pattern, false), {
        error: 'grep pattern is not a valid regular expression',
      }),
    GrepOptions,
  ])
  .meta({
    description:
      'Filters lines by their text and xpath, e.g. "section#auth|h[1-2]" (a regex, "|" between alternatives). In content mode it selects the outline sections to extract.',
  });
export type SnapshotGrep = z.infer<typeof SnapshotGrep>;

/** Sent by the server in `needs_snapshot`; also the options of `snapshot()` in @tandem/page. */
export const SnapshotRequest = z.object({
  mode: SnapshotMode.default('interactive'),
  format: SnapshotFormat.optional(),
  grep: SnapshotGrep.optional(),
  selector: z.string().min(1).max(1_000).optional().meta({
    description:
      'Scope: a CSS selector, an element id from the interactive tree ("@ref:14" or "14") or an xpath from the outline ("/main/section#auth").',
  }),
  maxDepth: z
    .int()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'Outline: deepest nesting level shown (1 = top-level lines only).' }),
  includeHidden: z
    .boolean()
    .optional()
    .meta({ description: 'Keep hidden elements (hidden attribute, display:none).' }),
  maxLength: z
    .int()
    .min(1)
    .max(SNAPSHOT_TEXT_MAX_LENGTH)
    .optional()
    .meta({ description: 'Content mode: most characters per extracted section.' }),
  includeLinks: z
    .boolean()
    .optional()
    .meta({ description: 'Content mode: links as [text](url); default text only.' }),
  includeImages: z
    .boolean()
    .optional()
    .meta({ description: 'Content mode: images as ![alt](src); default left out.' }),
  pageLinks: z.boolean().optional().meta({
    description:
      "Also list the page's links outside the selector's element (PageSnapshot.links): a routine's last read of a list asks whether a pager outside the part it reads leads on.",
  }),
});
export type SnapshotRequest = z.infer<typeof SnapshotRequest>;

/**
 * Links a snapshot lists at most, the most characters of one link's href, and the most rel
 * tokens of one link with the most characters of each (the page's reading and the schema
 * share them, so the extension never sends what the server would refuse).
 */
export const PAGE_LINK_LIMITS = {
  count: 2_000,
  hrefLength: 2_048,
  relTokens: 16,
  relTokenLength: 64,
} as const;

/** A link of the page (<a>, <area> or <link>) as the next-page check reads it. */
export const PageLink = z.object({
  href: z.string().max(PAGE_LINK_LIMITS.hrefLength).meta({
    description: 'The href attribute as written (entities decoded); resolved against the URL.',
  }),
  rel: z
    .array(z.string().max(PAGE_LINK_LIMITS.relTokenLength))
    .max(PAGE_LINK_LIMITS.relTokens)
    .meta({ description: 'The rel attribute\'s tokens, lower-case ("next").' }),
  disabled: z.boolean().meta({
    description: 'aria-disabled="true" or a disabled attribute: a greyed "Next" leads nowhere.',
  }),
});
export type PageLink = z.infer<typeof PageLink>;

/** Sent by the client in `snapshot`, answering a `needs_snapshot`. */
export const PageSnapshot = z.object({
  mode: SnapshotMode,
  text: z.string().max(SNAPSHOT_TEXT_MAX_LENGTH, {
    error: `snapshot text must be at most ${formatCount(SNAPSHOT_TEXT_MAX_LENGTH)} characters`,
  }),
  error: z.string().max(1_000).optional().meta({
    description:
      'Why the snapshot could not be taken as asked (e.g. the selector matches no element); `text` is then empty. The agent tells the model and goes on.',
  }),
  links: z.array(PageLink).max(PAGE_LINK_LIMITS.count).optional().meta({
    description:
      'With `pageLinks`: the page\'s links outside the selector\'s element, in page order (those marked rel="next" first).',
  }),
});
export type PageSnapshot = z.infer<typeof PageSnapshot>;
