// The one place the store's tests read the environment (lint bans process.env elsewhere).
import { z } from 'zod';

const TestEnv = z.object({
  /**
   * A MongoDB server for the Mongo adapter's tests (`mongodb://…` or `mongodb+srv://…`).
   * Unset, those tests skip: no MongoDB server can run on our machines or in CI.
   */
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'MONGODB_URI must start with mongodb:// or mongodb+srv://')
    .optional(),
});
export type TestEnv = z.infer<typeof TestEnv>;

// An empty or blank variable means "not set", as a shell `MONGODB_URI=` intends.
const blankToUndefined = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

export const testEnv: TestEnv = TestEnv.parse({
  MONGODB_URI: blankToUndefined(process.env.MONGODB_URI),
});
