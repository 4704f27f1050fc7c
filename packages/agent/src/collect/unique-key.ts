// Unique-id inference for `collect` (docs/specs.md, "Unique ID Inference"). The key decides what a
// duplicate is: the same job seen again after scrolling, or on the next results page.
//
//   | Type      | Primary key     | Fallback keys                          |
//   | job       | linkedinJobId   | jobId, (id), url, title@company        |
//   | product   | id              | sku, url                               |
//   | (any)     | id              | url                                    |
//
// The key strings follow the spec's getUniqueId: `linkedin:<id>`, `job:<jobId>`, the id or URL
// as given, and `<title>@<company>` lower-cased. `sku` (in the table, not in the spec's code)
// is `sku:<sku>`, so a product's SKU never collides with another product's numeric id. A job's
// `id` sits between jobId and url because the spec's code checks the generic id there.
//
// Two deliberate differences from the spec's JavaScript truthiness: `0` is a valid id (a site
// may number from zero), and only strings and numbers count as ids — an object or a boolean
// would otherwise become "[object Object]" or "true" and merge unrelated items.

type Data = Readonly<Record<string, unknown>>;
type KeyRule = (data: Data) => string | null;

/** A usable id: a non-blank string (trimmed) or a finite number. */
function scalar(value: unknown): string | null {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

const field =
  (name: string, format: (value: string) => string = (value) => value): KeyRule =>
  (data) => {
    const value = scalar(data[name]);
    return value === null ? null : format(value);
  };

// Card text is often split over lines or padded; "Senior  Engineer\n" is the same title.
const normalizeText = (value: string): string => value.replace(/\s+/g, ' ').trim().toLowerCase();

const titleAtCompany: KeyRule = (data) => {
  const title = scalar(data.title);
  const company = scalar(data.company);
  return title === null || company === null
    ? null
    : `${normalizeText(title)}@${normalizeText(company)}`;
};

const GENERIC_RULES: readonly KeyRule[] = [field('id'), field('url')];

const RULES_BY_TYPE: Readonly<Record<string, readonly KeyRule[]>> = {
  job: [
    field('linkedinJobId', (v) => `linkedin:${v}`),
    field('jobId', (v) => `job:${v}`),
    ...GENERIC_RULES,
    titleAtCompany,
  ],
  product: [field('id'), field('sku', (v) => `sku:${v}`), field('url')],
};

/**
 * The key that identifies `data` among the items of `type` already collected, or null when
 * none can be inferred (then duplicates are allowed, as the spec says). `type` is the
 * normalized type ("job", not "Job").
 */
export function inferUniqueKey(type: string, data: Data): string | null {
  for (const rule of RULES_BY_TYPE[type] ?? GENERIC_RULES) {
    const key = rule(data);
    if (key !== null) return key;
  }
  return null;
}

/** The fields that name an item: the same item seen again carries the same name. */
const NAME_FIELDS = ['title', 'name'] as const;

/**
 * Whether `data` names another item than `stored`, whose key it shares: a key the model made up
 * (a position on the page, the page's own URL for every card) that would otherwise drop it as a
 * duplicate without a word. Only a plain difference counts: a name within the other ("Data
 * Engineer (reposted)") and a missing name say nothing, and the item stays a duplicate.
 */
export function namesAnotherItem(stored: Data, data: Data): boolean {
  return NAME_FIELDS.some((field) => {
    const [was, now] = [scalar(stored[field]), scalar(data[field])];
    if (was === null || now === null) return false;
    const [a, b] = [normalizeText(was), normalizeText(now)];
    return !a.includes(b) && !b.includes(a);
  });
}
