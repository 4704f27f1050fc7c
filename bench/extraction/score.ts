// Field-level precision and recall against the demo's ground truth: an extracted field is
// correct when the truth item it belongs to (matched by its key field) has the same value.
type Item = Record<string, unknown>;

export interface Score {
  precision: number;
  recall: number;
  extractedFields: number;
  correctFields: number;
  truthFields: number;
}

export function scoreFields(
  extracted: unknown,
  truth: Item[],
  key: string,
  fields: string[],
): Score {
  const items = Array.isArray(extracted) ? (extracted as Item[]) : [];
  const byKey = new Map(truth.map((item) => [String(item[key]), item]));
  let extractedFields = 0;
  let correctFields = 0;
  const matched = new Set<string>();
  for (const item of items) {
    const truthItem = byKey.get(String(item[key]));
    for (const field of fields) {
      if (item[field] === undefined) continue;
      extractedFields++;
      if (truthItem && truthItem[field] === item[field]) correctFields++;
    }
    if (truthItem) matched.add(String(item[key]));
  }
  const truthFields = truth.length * fields.length;
  // Recall counts each truth item once, however often it was extracted.
  const recalled = truth
    .filter((item) => matched.has(String(item[key])))
    .reduce((sum, item) => {
      const found = items.find((i) => String(i[key]) === String(item[key])) ?? {};
      return sum + fields.filter((field) => found[field] === item[field]).length;
    }, 0);
  return {
    precision: extractedFields === 0 ? 0 : correctFields / extractedFields,
    recall: truthFields === 0 ? 1 : recalled / truthFields,
    extractedFields,
    correctFields,
    truthFields,
  };
}
