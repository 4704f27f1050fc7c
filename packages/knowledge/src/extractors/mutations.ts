// Random damage to a valid file, for property tests: whatever the bytes, extraction must fail
// only with the errors the server answers 4xx (ParseError, UnsupportedFormatError,
// InputTooComplexError; OfficeConversionError is a ParseError).
import { InputTooComplexError } from '@tandem/contracts';
import fc from 'fast-check';
import { ParseError } from './errors';
import { UnsupportedFormatError } from './types';

export type Mutation =
  | { kind: 'set'; at: number; value: number }
  | { kind: 'insert'; at: number; value: number; length: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'truncate'; at: number };

/** Where a mutation lands, in millionths of the file's length: unbiased, so not mostly at 0. */
const position = fc.noBias(fc.integer({ min: 0, max: 999_999 }));

/** Up to `max` mutations; truncation is rarer, since it alone makes most files unrecognisable. */
export const mutations = (max = 6): fc.Arbitrary<Mutation[]> =>
  fc.array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('set' as const),
          at: position,
          value: fc.nat(255),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('insert' as const),
          at: position,
          value: fc.nat(255),
          length: fc.integer({ min: 1, max: 64 }),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('delete' as const),
          at: position,
          length: fc.integer({ min: 1, max: 64 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: position }) },
    ),
    { minLength: 1, maxLength: max },
  ) as fc.Arbitrary<Mutation[]>;

/** The file with the mutations applied in order; positions are fractions of the current length. */
export function mutate(bytes: Uint8Array, steps: readonly Mutation[]): Uint8Array {
  let result = Array.from(bytes);
  for (const step of steps) {
    const at = Math.floor((step.at / 1_000_000) * result.length);
    if (step.kind === 'set') result[at] = step.value;
    else if (step.kind === 'insert')
      result.splice(at, 0, ...Array<number>(step.length).fill(step.value));
    else if (step.kind === 'delete') result.splice(at, step.length);
    else result = result.slice(0, at);
  }
  return new Uint8Array(result);
}

const ALLOWED = [
  'ParseError',
  'OfficeConversionError',
  'UnsupportedFormatError',
  'InputTooComplexError',
];

/** True for the errors extractDocument may throw; the rest are bugs the property reports. */
export const isAllowedError = (error: unknown): boolean =>
  (error instanceof ParseError ||
    error instanceof UnsupportedFormatError ||
    error instanceof InputTooComplexError) &&
  ALLOWED.includes(error.name);
