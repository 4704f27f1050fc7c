// Small helpers every libSQL repository shares: typed column readers (rows come back as
// loosely typed `Value`s), JSON columns, constraint detection and patch → SET clauses.
import type { InValue, Row } from '@libsql/client';

export const str = (row: Row, column: string): string => {
  const value = row[column];
  if (value === null || value === undefined) {
    throw new Error(`libsql: column ${column} is null`);
  }
  return String(value);
};

export const strOrNull = (row: Row, column: string): string | null => {
  const value = row[column];
  return value === null || value === undefined ? null : String(value);
};

export const num = (row: Row, column: string): number => {
  const value = row[column];
  return typeof value === 'number' ? value : Number(value ?? 0);
};

export const numOrNull = (row: Row, column: string): number | null => {
  const value = row[column];
  return value === null || value === undefined ? null : Number(value);
};

/**
 * JSON columns hold `JSON.stringify(value)`; SQL NULL means the value was null/undefined.
 * The caller names the type: the column was written from that same type.
 */
export const json = <T>(row: Row, column: string): T => {
  const value = row[column];
  return (value === null || value === undefined ? null : JSON.parse(String(value))) as T;
};

/** `undefined` (an absent optional field) is stored as NULL, like `null`. */
export const toJson = (value: unknown): string | null =>
  value === undefined ? null : JSON.stringify(value);

// Time normalisation lives in ../shared because the adapter-neutral record defaults need it
// too; re-exported here under the names the libSQL repositories import.
export { isoTime as iso, isoPlusMs } from '../shared';

export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, extendedCode } = error as Error & { code?: unknown; extendedCode?: unknown };
  return (
    extendedCode === 'SQLITE_CONSTRAINT_UNIQUE' ||
    extendedCode === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    (code === 'SQLITE_CONSTRAINT' && /UNIQUE|PRIMARY KEY/i.test(error.message)) ||
    /UNIQUE constraint failed/i.test(error.message)
  );
}

/** How one patchable field maps to its column (and how its value is encoded). */
export type ColumnMap<P> = {
  [K in keyof P]-?: { column: string; encode?: (value: P[K]) => InValue };
};

/**
 * Builds `col = ?` assignments for the keys present in a patch. A key set to `undefined`
 * is "not given" (Partial semantics), so it is skipped rather than nulled.
 */
export function buildSet<P extends object>(
  patch: P,
  columns: ColumnMap<P>,
): { assignments: string[]; args: InValue[] } {
  const assignments: string[] = [];
  const args: InValue[] = [];
  for (const key of Object.keys(columns) as (keyof P)[]) {
    if (!Object.hasOwn(patch, key)) continue;
    const value = patch[key];
    if (value === undefined) continue;
    const spec = columns[key];
    assignments.push(`${spec.column} = ?`);
    args.push(spec.encode ? spec.encode(value) : (value as InValue));
  }
  return { assignments, args };
}

/** `?, ?, ?` for an IN list. */
export const placeholders = (count: number): string => new Array(count).fill('?').join(', ');

/** The row of a `RETURNING *` statement that always returns one. */
export function firstRow(rows: Row[]): Row {
  const row = rows[0];
  if (row === undefined) throw new Error('libsql: expected a row');
  return row;
}
