// The V3 semantic tree: the page as the extension sends it (docs/specs.md, "V3 Semantic
// Extraction"). Keys are minified on purpose: the tree is sent on every step, so each key is paid
// for thousands of times per task. What the model reads is a separate, even smaller rendering.
import { z } from 'zod';

/**
 * Element ids are opaque strings chosen by the page package (stable `data-llm-id` values).
 * The charset is narrow so an id can never smuggle quotes, parentheses or whitespace into
 * an action string, and so `click(14)` and `click("14")` name the same element.
 */
export const ELEMENT_ID_PATTERN = /^[A-Za-z0-9_:.-]+$/;
export const ELEMENT_ID_MAX_LENGTH = 64;

/** What a filled password field shows as its value (`v`): fixed, so its length does not leak. */
export const MASKED_VALUE = '********';

export const ElementId = z
  .string()
  .min(1, { error: 'element id must not be empty' })
  .max(ELEMENT_ID_MAX_LENGTH, {
    error: `element id must be at most ${ELEMENT_ID_MAX_LENGTH} characters`,
  })
  .regex(ELEMENT_ID_PATTERN, {
    error: 'element id may contain only letters, digits, "_", ":", "." and "-"',
  })
  .meta({ description: 'The V3 `i` value of an element, e.g. "14".' });
export type ElementId = z.infer<typeof ElementId>;

/**
 * The role codes the page package emits. `r` accepts any short string so a page can pass an
 * ARIA role we have no code for (e.g. "treeitem") instead of dropping the element.
 */
export const KNOWN_NODE_ROLES = {
  btn: 'button',
  inp: 'text-like input',
  link: 'link',
  chk: 'checkbox',
  sel: 'select / listbox',
  radio: 'radio button',
  txt: 'textarea',
  opt: 'option',
  tab: 'tab',
  menu: 'menu item',
  sw: 'switch',
  combo: 'combobox',
  sld: 'slider',
  edit: 'contenteditable region',
} as const;
export type KnownNodeRole = keyof typeof KNOWN_NODE_ROLES;

/** States the page package joins with "," in `s` (e.g. "checked,disabled"). */
export const KNOWN_NODE_STATES = [
  'disabled',
  'checked',
  'expanded',
  'collapsed',
  'selected',
  'required',
  'readonly',
  'invalid',
  'focused',
] as const;

// Per-field caps bound the memory one node can take; the page package truncates long text
// before sending, so hitting these means a broken client, not a long page.
export const NODE_NAME_MAX_LENGTH = 2_000;
export const NODE_VALUE_MAX_LENGTH = 20_000;

const Coordinate = z.number();
const Extent = z.number().nonnegative();

export const ScrollInfo = z
  .object({
    depth: z.string().max(16).meta({ description: 'How far it is scrolled, e.g. "50%".' }),
    h: Extent.meta({ description: 'Scrollable height in CSS pixels.' }),
  })
  .meta({ description: 'Scrollable container info (V3 advanced).' });
export type ScrollInfo = z.infer<typeof ScrollInfo>;

export const SemanticNodeV3 = z
  .object({
    i: ElementId,
    r: z
      .string()
      .min(1)
      .max(24)
      .meta({
        description: `Role code: ${Object.entries(KNOWN_NODE_ROLES)
          .map(([code, role]) => `${code}=${role}`)
          .join(', ')}; other short ARIA roles pass through.`,
      }),
    n: z
      .string()
      .max(NODE_NAME_MAX_LENGTH)
      .optional()
      .meta({ description: 'Name or label visible to the user.' }),
    v: z
      .string()
      .max(NODE_VALUE_MAX_LENGTH)
      .optional()
      .meta({ description: 'Current value (inputs, selects).' }),
    s: z
      .string()
      .max(200)
      .optional()
      .meta({
        description: `State, comma-joined when several: ${KNOWN_NODE_STATES.join(', ')}.`,
      }),
    xy: z
      .tuple([Coordinate, Coordinate])
      .optional()
      .meta({ description: '[x, y] centre on screen, CSS pixels.' }),
    f: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .meta({ description: 'Frame id; 0 (main frame) is the default and is omitted.' }),
    box: z
      .tuple([Coordinate, Coordinate, Extent, Extent])
      .optional()
      .meta({ description: '[x, y, w, h] bounding box (V3 advanced).' }),
    scr: ScrollInfo.optional(),
    occ: z
      .boolean()
      .optional()
      .meta({ description: 'true when a modal covers it; never target such an element.' }),
    h: z.string().max(260).optional().meta({
      description:
        "Links and submit buttons that lead to another site than the page's: that site (host with its port when not the default), so a click that leaves the task's sites is refused like a navigate.",
    }),
  })
  .meta({ description: 'One interactive element of the V3 semantic tree.' });
export type SemanticNodeV3 = z.infer<typeof SemanticNodeV3>;

export const Viewport = z.object({
  width: z.number().positive().max(100_000),
  height: z.number().positive().max(100_000),
});
export type Viewport = z.infer<typeof Viewport>;

/** A virtual list / infinite-scroll region, so the agent knows more items can load. */
export const ScrollableContainer = z.object({
  id: ElementId,
  n: z.string().max(NODE_NAME_MAX_LENGTH).optional(),
  depth: z.string().max(16).optional(),
  h: Extent.optional(),
  hasMore: z.boolean().optional(),
});
export type ScrollableContainer = z.infer<typeof ScrollableContainer>;

const shortList = (maxItems: number, maxLength: number, what: string) =>
  z
    .array(z.string().max(maxLength, { error: `each ${what} must be at most ${maxLength} chars` }))
    .max(maxItems, { error: `at most ${maxItems} ${what}s` });

/**
 * Production-grade V3 signals (docs/specs.md, "V3 Semantic Extraction"). The Sentinel fields let
 * verification finish without an LLM call when the page itself reported success or errors.
 */
export const V3AdvancedFields = z.object({
  scrollPosition: z
    .string()
    .max(16)
    .optional()
    .meta({ description: 'Page scroll depth, e.g. "50%".' }),
  scrollableContainers: z.array(ScrollableContainer).max(100).optional(),
  recentEvents: shortList(200, 1_000, 'recent event')
    .optional()
    .meta({ description: 'Mutation stream since the last action, for ghost-state detection.' }),
  hasErrors: z.boolean().optional(),
  hasSuccess: z.boolean().optional(),
  verification_passed: z
    .boolean()
    .optional()
    .meta({ description: "The client's Sentinel verification verdict." }),
  errors_detected: shortList(100, 2_000, 'error message').optional(),
  success_messages: shortList(100, 2_000, 'success message').optional(),
});
export type V3AdvancedFields = z.infer<typeof V3AdvancedFields>;
