import { describe, expect, it } from 'vitest';
import { daysOf, ReportWindowError, resolveReportWindow } from './window';

const NOW = new Date('2024-03-31T12:34:56.789Z');

describe('resolveReportWindow', () => {
  it('defaults to the 30 days before now', () => {
    expect(resolveReportWindow({}, NOW)).toEqual({
      from: '2024-03-01T12:34:56.789Z',
      to: '2024-03-31T12:34:56.789Z',
    });
  });

  it('reads a date-only `to` as through that day, and a missing `from` as 30 days before it', () => {
    expect(resolveReportWindow({ from: '2024-03-01', to: '2024-03-01' }, NOW)).toEqual({
      from: '2024-03-01T00:00:00.000Z',
      to: '2024-03-02T00:00:00.000Z',
    });
    expect(resolveReportWindow({ to: '2024-02-29' }, NOW)).toEqual({
      from: '2024-01-31T00:00:00.000Z',
      to: '2024-03-01T00:00:00.000Z',
    });
  });

  it('takes date-times with offsets as instants', () => {
    expect(
      resolveReportWindow({ from: '2024-03-01T02:00:00+02:00', to: '2024-03-01T01:00:00Z' }, NOW),
    ).toEqual({ from: '2024-03-01T00:00:00.000Z', to: '2024-03-01T01:00:00.000Z' });
  });

  it('refuses empty, reversed and over-long windows with a message naming the bounds', () => {
    expect(() => resolveReportWindow({ from: '2024-03-02', to: '2024-03-01T00:00:00Z' })).toThrow(
      /must be before `to`/,
    );
    expect(() =>
      resolveReportWindow({ from: '2024-03-01T00:00:00Z', to: '2024-03-01T00:00:00Z' }),
    ).toThrow(ReportWindowError);
    expect(() => resolveReportWindow({ from: '2023-01-01', to: '2024-03-01' })).toThrow(
      /Window too long: 426 days/,
    );
    expect(() => resolveReportWindow({ from: '2099-01-01' }, NOW)).toThrow(/must be before/);
  });
});

describe('daysOf', () => {
  it('lists every UTC day the window touches', () => {
    expect(daysOf({ from: '2024-02-28T23:00:00.000Z', to: '2024-03-01T00:00:00.000Z' })).toEqual([
      '2024-02-28',
      '2024-02-29',
    ]);
    expect(daysOf({ from: '2024-03-01T10:00:00.000Z', to: '2024-03-01T10:00:00.001Z' })).toEqual([
      '2024-03-01',
    ]);
  });
});
