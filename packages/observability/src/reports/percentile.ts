// Percentiles for latency KPIs. Nearest rank, so every reported value is a latency that was
// actually observed (an interpolated p95 of two samples would be a time no request took).

/** The p-th percentile (0 < p <= 100) of the values, or null when there are none. */
export function nearestRank(values: readonly number[], p: number): number | null {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100]: ${p}`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.max(rank, 1) - 1] ?? null;
}
