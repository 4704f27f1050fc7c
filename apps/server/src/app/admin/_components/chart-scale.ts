// The cost chart's y scale, kept apart from the component so it is unit-testable.

/** A round tick step (1, 2, 2.5 or 5 × 10^n) giving about four gridlines up to `max`. */
export function niceStep(max: number): number {
  if (max <= 0) return 1;
  const raw = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10;
  return step * magnitude;
}
