// A replay recipe: where each field of a successful extraction sat on the page, as CSS
// selectors, so that a page of the same shape can be read again without the model. It is
// stored as opaque JSON next to the strategy, so it is plain data and is checked by
// ReplayRecipeSchema whenever it is read back (a stored recipe may be from an older build or
// hand-edited; replaying a malformed one must fail loudly, not half-work).
import { z } from 'zod';

/** How one field is read relative to its item container (or the document, for 'object'). */
export interface FieldRule {
  /** CSS selector relative to the container; null = the container itself. */
  selector: string | null;
  /** The element's normalized text, or one of its attributes. */
  source: 'text' | 'attr';
  /** The attribute read when source is 'attr'. */
  attr?: string;
  type: 'string' | 'number' | 'integer' | 'boolean';
  /**
   * Numbers: the decimal mark the learning page wrote them with (the other mark and spaces
   * group thousands). A number written otherwise reads as nothing, so the replay declines
   * instead of misreading "1.908 €" as 1.908. Absent: no learned value told the marks apart.
   */
  decimal?: '.' | ',';
  /** Table rows: the field's column, an index into the recipe's `headers` (columns.ts). */
  column?: number;
  /** From the schema: the spot check requires the field in every item. */
  required?: boolean;
  /** From the schema: a field the page lacks is written as null instead of left out. */
  nullable?: boolean;
}

export interface ReplayRecipe {
  version: 1;
  /** 'list': the schema is an array of objects; 'object': a single object. */
  kind: 'list' | 'object';
  /** CSS selector of each item (list); null for 'object'. */
  container: string | null;
  /** By schema property name, in the schema's order. */
  fields: Record<string, FieldRule>;
  /** Items the recipe was learned from (1 for 'object'). */
  itemsSeen: number;
  /**
   * Lists: the learning page's title and heading words (entity.ts). A page whose title and
   * heading share none of them is another list of the same shape, and the replay declines.
   */
  entity?: string[];
  /**
   * Lists: what marked the containers the item selector matched but the model left out on the
   * learning page (negatives.ts); replay skips containers that carry it.
   */
  exclude?: { text?: string; className?: string };
  /**
   * Lists: advert marks the model's own items carried on the learning page (a job board's
   * "Promoted" listings are real jobs). The model took such containers as items, so the spot
   * check does not decline a replay for them; any other mark still makes it decline.
   */
  itemMarks?: string[];
  /** Table rows: the learning page's header row, which binds the fields' columns (columns.ts). */
  headers?: string[];
  /**
   * Lists: the learning page's items were divided by headings (a list grouped by date). Absent:
   * they were not, and a page whose items are is not replayed (sections.ts).
   */
  sectioned?: true;
  /**
   * Lists: the text of the heading the learning page's items sat under, null when they sat
   * under none (sections.ts). A page whose items sit under another heading is not replayed (a
   * "Recommended" strip left in the old card markup). Absent: a recipe stored before it was
   * kept, not judged by it.
   */
  heading?: string | null;
  /**
   * Lists: every word of that heading is a word of the learning page's URL (/c/shoes, under
   * "Shoes"): the heading names what the URL names, so a page of the same list for another
   * value (/c/boots, under "Boots") is the same list (sections.ts, namedByUrl).
   */
  headingInUrl?: true;
}

const SELECTOR_LENGTH = 1_000;
/** At most what learning keeps of a heading's text (sections.ts). */
export const HEADING_LENGTH = 200;
const MAX_FIELDS = 200;

const Selector = z.string().min(1).max(SELECTOR_LENGTH);

export const FieldRuleSchema: z.ZodType<FieldRule> = z
  .object({
    selector: Selector.nullable(),
    source: z.enum(['text', 'attr']),
    attr: z
      .string()
      .regex(/^[^\s"'>/=]+$/)
      .max(200)
      .optional(),
    type: z.enum(['string', 'number', 'integer', 'boolean']),
    decimal: z.enum(['.', ',']).optional(),
    column: z.number().int().nonnegative().max(1_000).optional(),
    required: z.boolean().optional(),
    nullable: z.boolean().optional(),
  })
  .refine((rule) => (rule.source === 'attr') === (rule.attr !== undefined), {
    error: 'attr is set exactly when source is "attr"',
  });

export const ReplayRecipeSchema: z.ZodType<ReplayRecipe> = z
  .object({
    version: z.literal(1),
    kind: z.enum(['list', 'object']),
    container: Selector.nullable(),
    fields: z
      .record(z.string().min(1).max(200), FieldRuleSchema)
      .refine((fields) => Object.keys(fields).length >= 1, { error: 'a recipe has fields' })
      .refine((fields) => Object.keys(fields).length <= MAX_FIELDS, {
        error: `a recipe has at most ${MAX_FIELDS} fields`,
      })
      .refine((fields) => !Object.hasOwn(fields, '__proto__'), {
        error: '"__proto__" is not a field name',
      }),
    itemsSeen: z.number().int().nonnegative(),
    entity: z.array(z.string().min(1).max(100)).max(50).optional(),
    headers: z.array(z.string().max(500)).max(1_000).optional(),
    sectioned: z.literal(true).optional(),
    heading: z.string().min(1).max(HEADING_LENGTH).nullable().optional(),
    headingInUrl: z.literal(true).optional(),
    itemMarks: z.array(z.string().min(1).max(200)).max(20).optional(),
    exclude: z
      .object({
        text: z.string().min(1).max(200).optional(),
        className: z.string().min(1).max(200).optional(),
      })
      .optional(),
  })
  .refine((recipe) => (recipe.kind === 'list') === (recipe.container !== null), {
    error: 'a list recipe has a container selector and an object recipe has none',
    path: ['container'],
  });

/** A stored recipe, checked; the reason says what is wrong with it otherwise. */
export function readRecipe(
  value: unknown,
): { recipe: ReplayRecipe; reason?: undefined } | { recipe: null; reason: string } {
  const parsed = ReplayRecipeSchema.safeParse(value);
  if (parsed.success) return { recipe: parsed.data };
  return { recipe: null, reason: `invalid replay recipe: ${z.prettifyError(parsed.error)}` };
}
