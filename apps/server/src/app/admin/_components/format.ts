// Display formatting for the admin pages. Amounts arrive as exact strings or integer micro-USD;
// only what is shown is rounded.

const integer = new Intl.NumberFormat('en-US');

export const formatInt = (value: number): string => integer.format(value);

/** "$12.345678" from the exact `costUsd` string, trimmed to at least cents. */
export function formatUsd(costUsd: string): string {
  const negative = costUsd.startsWith('-');
  const [whole = '0', fraction = ''] = costUsd.replace('-', '').split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}$${integer.format(Number(whole))}.${trimmed}`;
}

/** Axis labels: dollars with as many decimals as the tick step needs; the baseline is "$0". */
export function formatMicroUsdTick(micro: number, stepMicro: number): string {
  if (micro === 0) return '$0';
  // Enough decimals to write the step exactly: a 2.5 step must not read as 3 after rounding.
  let decimals = 2;
  while (decimals < 6 && Math.round(stepMicro) % 10 ** (6 - decimals) !== 0) decimals += 1;
  return `$${(micro / 1_000_000).toFixed(decimals)}`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatRate(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(1)}%`;
}

/** "2024-05-01 14:03:12 UTC": one zone for everyone reading the same report. */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

const isMidnight = (iso: string): boolean => iso.slice(11, 23) === '00:00:00.000';

/**
 * A report window in the terms of the date form: whole UTC days when the window is whole days
 * ("2024-05-01 to 2024-05-31, both days included"), else the exact instants with "up to" for
 * the end, which is not included (the default window ends now, to the second).
 */
export function windowText(window: { from: string; to: string }): string {
  if (isMidnight(window.from) && isMidnight(window.to))
    return `${window.from.slice(0, 10)} to ${lastDayOf(window.to)} (UTC days, both included)`;
  return `${formatTime(window.from)} up to ${formatTime(window.to)}`;
}

/** The inclusive last day of a window whose `to` is exclusive (what a date picker shows). */
export const lastDayOf = (toIso: string): string =>
  new Date(Date.parse(toIso) - 1).toISOString().slice(0, 10);
