// The catalogue, in the order it runs: quick, cheap refusals first; the heavy ones last, so a
// server that a heavy case kills has measured the rest before it.
import { EXTRACT_CASES } from './extract';
import { FAIR_SHARE } from './fair-share';
import { FILE_CASES } from './files';
import { PATH_CASES } from './paths';
import type { HostileCase } from './types';

export const HOSTILE_CASES: HostileCase[] = [
  ...PATH_CASES,
  ...EXTRACT_CASES,
  ...FILE_CASES.filter((c) => c.quick),
  FAIR_SHARE,
  ...FILE_CASES.filter((c) => !c.quick),
];

export type { HostileCase, Outcome } from './types';
