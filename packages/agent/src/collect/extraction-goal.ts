// Whether a goal asks for data rather than an action, and how many items it wants. A goal such
// as "Extract 25 job listings" sets the task's collectLimit when the client sent none, so the
// task finishes by itself at the 25th unique item (docs/specs.md, "Collection Limits").
const EXTRACTION_VERB =
  /\b(extract|collect|scrape|gather|harvest|list|export|compile|get me|find all|pull)\b/i;

/** Counted nouns right after the number: "25 jobs", "10 product listings", "50 rows". */
const COUNTED_ITEMS =
  /\b(\d{1,5})\s+(?:[a-z-]+\s+){0,2}?(items?|jobs?|listings?|postings?|products?|results?|rows?|entries|records?|companies|people|profiles?|articles?|posts?|reviews?|links?|emails?|contacts?|leads?|cards?)\b/i;

export function isExtractionGoal(query: string): boolean {
  return EXTRACTION_VERB.test(query);
}

/** The item count an extraction goal names, or null (not extraction, no count, or out of range). */
export function inferCollectLimit(query: string): number | null {
  if (!isExtractionGoal(query)) return null;
  const match = COUNTED_ITEMS.exec(query);
  if (!match?.[1]) return null;
  const n = Number(match[1]);
  return n >= 1 && n <= 10_000 ? n : null;
}
