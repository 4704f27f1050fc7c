// Field-level precision and recall of one extraction against its ground truth: every value
// (leaf) by its path. An extracted value is correct when the truth has the same value at the
// same path (numbers as numbers, text exactly); precision is over what was extracted, recall
// over what the truth holds.
import { formatFieldPath, type FieldPathSegment } from '@tandem/contracts';

export interface Score {
  extracted: number;
  truth: number;
  correct: number;
  precision: number;
  recall: number;
}

export function leaves(value: unknown, path: FieldPathSegment[] = []): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const visit = (v: unknown, p: FieldPathSegment[]) => {
    if (Array.isArray(v)) v.forEach((item, i) => visit(item, [...p, i]));
    else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) visit(child, [...p, key]);
    } else if (p.length > 0) out.set(formatFieldPath(p), v);
  };
  visit(value, path);
  return out;
}

export function scoreFields(extracted: unknown, truth: unknown): Score {
  const got = leaves(extracted);
  const want = leaves(truth);
  let correct = 0;
  for (const [path, value] of got) if (want.has(path) && want.get(path) === value) correct++;
  return {
    extracted: got.size,
    truth: want.size,
    correct,
    precision: got.size === 0 ? 0 : correct / got.size,
    recall: want.size === 0 ? 1 : correct / want.size,
  };
}

/** Sums of several scores, with micro-averaged precision and recall. */
export function total(scores: Score[]): Score {
  const sum = (key: 'extracted' | 'truth' | 'correct') => scores.reduce((n, s) => n + s[key], 0);
  const extracted = sum('extracted');
  const truth = sum('truth');
  const correct = sum('correct');
  return {
    extracted,
    truth,
    correct,
    precision: extracted === 0 ? 0 : correct / extracted,
    recall: truth === 0 ? 1 : correct / truth,
  };
}
