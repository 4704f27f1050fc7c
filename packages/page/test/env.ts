// The one place this package's tests read the environment (lint bans process.env elsewhere).
// @tandem/page has no zod (it ships to pages), so the one flag is checked by hand.
const raw = process.env.UPDATE_GOLDEN?.trim() ?? '';
if (!['', '0', '1'].includes(raw)) {
  throw new Error(`UPDATE_GOLDEN must be 1 or 0 (got ${JSON.stringify(raw)})`);
}

export const testEnv = {
  /** UPDATE_GOLDEN=1 rewrites test/golden/* from the current output instead of comparing. */
  updateGolden: raw === '1',
} as const;
