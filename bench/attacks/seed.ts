/** The suite's fixed seed: CI runs the first cases of it, the bench many more. */
export const ATTACK_SEED = 28;
