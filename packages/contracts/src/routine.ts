// Routines: a task that completed with every step verified, kept as steps that can
// run again without the model. One schema for the store's records, the agent's compiler and
// (later) the routines API, so the three cannot disagree about what a step is.
import { z } from 'zod';
import { ActionName } from './action-grammar';
import { VerificationTier } from './domain';
import { RiskKind } from './risk';
import { NODE_NAME_MAX_LENGTH, NODE_VALUE_MAX_LENGTH } from './semantic-tree';

export const ROUTINE_LIMITS = {
  steps: 200,
  parameters: 50,
  locators: 8,
  // Twice the longest goal: a `{firstName}` is longer than the "Jas" it stands for.
  goalTemplateLength: 8_000,
  nameLength: 200,
  siteLength: 260,
  textLength: 500,
  texts: 10,
} as const;

/** `{firstName}`: a parameter's name as the templates write it inside braces. */
export const ROUTINE_PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const Role = z.string().min(1).max(24);
const Text = z.string().max(NODE_NAME_MAX_LENGTH);

/**
 * One way to find a step's target on a live tree, tried in the order stored: the exact role and
 * name; the name alone (the role code changed, a button became a link); the element of that
 * role next to a neighbour's name (a field whose own label changed); the nth of its role.
 */
export const RoutineLocator = z.discriminatedUnion('by', [
  z.object({ by: z.literal('role-name'), role: Role, name: Text }),
  z.object({ by: z.literal('label'), text: Text.min(1) }),
  z.object({
    by: z.literal('near'),
    role: Role,
    text: Text.min(1),
    /** The neighbour comes right before (`after`: the target follows it) or right after it. */
    side: z.enum(['after', 'before']),
  }),
  z.object({ by: z.literal('ordinal'), role: Role, index: z.number().int().nonnegative() }),
]);
export type RoutineLocator = z.infer<typeof RoutineLocator>;

export const RoutineTarget = z.object({
  /** Role, name, frame and rank among the same role and name: equal means "the same element". */
  fingerprint: z
    .string()
    .min(1)
    .max(NODE_NAME_MAX_LENGTH + 100),
  locators: z.array(RoutineLocator).min(1).max(ROUTINE_LIMITS.locators),
  /**
   * The element's name as a template when the goal said it (a link or option clicked by the
   * name the goal gave: `{department}`), or a distinctive part of it (`Approve {item}` for
   * "Approve invoice INV-1003"); a rerun looks for the element its own value names, and only
   * an element of that name will do.
   */
  name: z
    .string()
    .min(1)
    .max(NODE_NAME_MAX_LENGTH + 100)
    .optional(),
});
export type RoutineTarget = z.infer<typeof RoutineTarget>;

/** What a step's action may do that cannot be undone: `safe`, or the risk that asks approval. */
export const RoutineSafety = z.enum(['safe', ...RiskKind.options]);
export type RoutineSafety = z.infer<typeof RoutineSafety>;

/**
 * The tier-1 facts verification saw after the step (the unit it verified: one action, or a
 * chain's last action): what a rerun checks the step against.
 */
export const RoutineExpectation = z.object({
  /** The tier that judged the step (2/3: a model confirmed what tier 1 could not). */
  tier: VerificationTier,
  urlChanged: z.boolean(),
  /** The page's URL after the step. */
  url: z.string().max(8_192),
  domChanged: z.boolean(),
  /**
   * The client saw network activity after the step: a rerun lets it settle (the stability
   * wait) before it checks the outcome.
   */
  network: z.boolean(),
  /** Every field the step typed into or chose from held its value afterwards. */
  fieldsHold: z.boolean(),
  /** Text the page showed after the step that it did not show before (success messages…). */
  text: z.array(z.string().max(ROUTINE_LIMITS.textLength)).max(ROUTINE_LIMITS.texts),
  reason: z.string().max(2_000),
});
export type RoutineExpectation = z.infer<typeof RoutineExpectation>;

// The grammar's actions a routine replays: not clickAt (a point on a page that may have moved),
// not finish/fail (the run's end, not a step) and not googleSearch (an answer, not the page).
// Plus `extract`: a saved extraction read again on the page (its strategy's id is the step's
// value); the server reads it from a content snapshot, so it never reaches the browser as an
// action. And `collect`: items read again on the page with the selectors learned from what the
// first run's model collected there (the item type is the step's value), stored as collected.
export const ROUTINE_EXTRACT = 'extract';
export const ROUTINE_COLLECT = 'collect';
export const RoutineStepAction = z.enum([
  ...ActionName.exclude(['clickAt', 'finish', 'fail', 'googleSearch']).options,
  ROUTINE_EXTRACT,
  ROUTINE_COLLECT,
]);
export type RoutineStepAction = z.infer<typeof RoutineStepAction>;

export const RoutineStep = z.object({
  action: RoutineStepAction,
  /** Null for actions on no element (press, navigate, goBack, wait, a page scroll). */
  target: RoutineTarget.nullable(),
  /**
   * The action's one other argument as text, with `{name}` where a parameter goes: the typed
   * text, the chosen option, the key, the URL, the scroll direction or the seconds to wait;
   * for `extract`, the id of the extraction strategy it replays; for `collect`, the type of the
   * items it collects.
   * Literal braces are doubled (`{{`), so a value can hold them.
   */
  value: z.string().max(NODE_VALUE_MAX_LENGTH).nullable(),
  /** Sent in one chain with the next step (a rerun may chain them again). */
  chained: z.boolean(),
  /** Null for a chain's actions before its last: the chain is verified as one unit. */
  expect: RoutineExpectation.nullable(),
  safety: RoutineSafety,
  /**
   * The step only cleared the way in the first run (a cookie banner dismissed): a rerun skips
   * it when its target is not there.
   */
  optional: z.boolean(),
  /**
   * The page the step acts on, as the first run found it: a rerun whose page is not like it
   * (another path: the same form elsewhere may do something else) stops replaying there.
   * Absent on routines saved before it was kept.
   */
  page: z.object({ url: z.string().max(8_192) }).optional(),
});
export type RoutineStep = z.infer<typeof RoutineStep>;

export const RoutineParameter = z.object({
  name: z.string().regex(ROUTINE_PARAMETER_NAME),
  /** The value the first run used. */
  example: z.string().max(NODE_VALUE_MAX_LENGTH),
  /** `goal`: traced from the goal's text; `explicit`: written as {{name}} in the goal. */
  source: z.enum(['goal', 'explicit']),
  /** Indexes of the steps whose value uses it. */
  steps: z.array(z.number().int().nonnegative()).max(ROUTINE_LIMITS.steps),
});
export type RoutineParameter = z.infer<typeof RoutineParameter>;

/** What the compiler produces from a verified run, before the store gives it an id. */
export const RoutineDraft = z.object({
  /** The site the routine runs on: the start page's host (with its port when not default). */
  site: z.string().min(1).max(ROUTINE_LIMITS.siteLength),
  /** The goal with `{name}` where each parameter's value was (literal braces doubled). */
  goalTemplate: z.string().min(1).max(ROUTINE_LIMITS.goalTemplateLength),
  name: z.string().trim().min(1).max(ROUTINE_LIMITS.nameLength),
  parameters: z.array(RoutineParameter).max(ROUTINE_LIMITS.parameters),
  steps: z.array(RoutineStep).min(1).max(ROUTINE_LIMITS.steps),
});
export type RoutineDraft = z.infer<typeof RoutineDraft>;

/** A stored routine version, as the API shows it. */
export const Routine = RoutineDraft.extend({
  id: z.string(),
  version: z.number().int().positive(),
  sourceTaskId: z.string().nullable(),
  enabled: z.boolean(),
  runs: z.number().int().nonnegative(),
  heals: z.number().int().nonnegative(),
  tokensSaved: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Routine = z.infer<typeof Routine>;

// ------------------------------------------------------------------ admin API

/** A parameter as a list shows it: its name and the value the first run used. */
export const RoutineParameterSummary = RoutineParameter.pick({ name: true, example: true });
export type RoutineParameterSummary = z.infer<typeof RoutineParameterSummary>;

/** One stored version without its steps: a row of GET /api/routines. */
export const RoutineSummary = Routine.omit({ steps: true, parameters: true }).extend({
  parameters: z.array(RoutineParameterSummary),
  stepCount: z.number().int().nonnegative(),
});
export type RoutineSummary = z.infer<typeof RoutineSummary>;

export const RoutineListQuery = z.object({
  /** Only the routines of this site (the host, with its port when not the default). */
  site: z.string().min(1).max(ROUTINE_LIMITS.siteLength).optional(),
  /** `latest`: each routine's highest version; `all`: every version. */
  versions: z.enum(['latest', 'all']).default('latest'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(512).optional(),
});
export type RoutineListQuery = z.infer<typeof RoutineListQuery>;

/** GET /api/routines: newest first. */
export const RoutineList = z.object({
  items: z.array(RoutineSummary),
  nextCursor: z.string().nullable(),
});
export type RoutineList = z.infer<typeof RoutineList>;

export const RoutineParams = z.object({ routineId: z.string().min(1).max(200) });
export type RoutineParams = z.infer<typeof RoutineParams>;

/** GET /api/routines/{id}: the version asked for, with every version of its routine. */
export const RoutineDetail = Routine.extend({
  /** Every version of the routine, highest first (this one included). */
  versions: z.array(RoutineSummary),
});
export type RoutineDetail = z.infer<typeof RoutineDetail>;

export const ROUTINE_NAME_MAX_LENGTH = 120;

/** PATCH /api/routines/{id}: a new title and/or whether the routine may run. */
export const RoutinePatchRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(ROUTINE_NAME_MAX_LENGTH).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((patch) => patch.name !== undefined || patch.enabled !== undefined, {
    message: 'Give `name`, `enabled` or both.',
  });
export type RoutinePatchRequest = z.infer<typeof RoutinePatchRequest>;

/** DELETE /api/routines/{id}: how many versions went. */
export const DeleteRoutineResponse = z.object({ deleted: z.number().int().positive() });
export type DeleteRoutineResponse = z.infer<typeof DeleteRoutineResponse>;

// ------------------------------------------------------------------ reruns

/** Values for a routine's parameters, by name (the popup's "Run again with…" form). */
export const RoutineValues = z
  .record(z.string().regex(ROUTINE_PARAMETER_NAME), z.string().max(NODE_VALUE_MAX_LENGTH))
  .refine((values) => Object.keys(values).length <= ROUTINE_LIMITS.parameters, {
    message: `at most ${ROUTINE_LIMITS.parameters} values`,
  });
export type RoutineValues = z.infer<typeof RoutineValues>;

/**
 * New tasks only: run this routine with these values. The goal must still read as the
 * routine's template with them (the popup fills the template), and the routine must be the
 * tenant's, enabled and of the tab's site; otherwise the task runs as any other.
 */
export const RoutineRunRequest = z.object({
  routineId: z.string().min(1).max(200),
  values: RoutineValues,
});
export type RoutineRunRequest = z.infer<typeof RoutineRunRequest>;

/** What a response says of the routine the task runs (the live view's banner). */
export const RoutineRunInfo = z.object({
  routineId: z.string(),
  name: z.string(),
  version: z.number().int().positive(),
  /** When this version was saved (ISO 8601). */
  savedAt: z.string(),
  /** Routine steps done so far, of `steps`. */
  done: z.number().int().nonnegative(),
  steps: z.number().int().positive(),
  /** Model calls the task made since the routine started (heals, a classification). */
  modelCalls: z.number().int().nonnegative(),
  /** The routine's steps (0-based) the model healed in this run. */
  healed: z.array(z.number().int().nonnegative()),
  /** Set when the routine stopped and the full agent took over: why. */
  fellBack: z.string().nullable(),
});
export type RoutineRunInfo = z.infer<typeof RoutineRunInfo>;

/** A routine the popup offers for the tab's site: GET /api/routines/offers. */
export const RoutineOffer = z.object({
  id: z.string(),
  name: z.string(),
  goalTemplate: z.string(),
  parameters: z.array(RoutineParameterSummary),
  version: z.number().int().positive(),
  savedAt: z.string(),
  runs: z.number().int().nonnegative(),
});
export type RoutineOffer = z.infer<typeof RoutineOffer>;

/** The most routines one offers list holds: a popup shows a short list, not a catalogue. */
export const ROUTINE_OFFERS_MAX = 20;

export const RoutineOffersQuery = z.object({
  site: z
    .string()
    .min(1)
    .max(ROUTINE_LIMITS.siteLength)
    // A host as URL.host gives it (IPv6 brackets and a port included): a scheme, path, space or
    // user part means the caller sent a URL or text, which no saved routine can match.
    .regex(/^[^\s/\\?#@]+$/, { error: 'site is a host with its port, such as app.example.com' }),
});
export type RoutineOffersQuery = z.infer<typeof RoutineOffersQuery>;

export const RoutineOfferList = z.object({ items: z.array(RoutineOffer) });
export type RoutineOfferList = z.infer<typeof RoutineOfferList>;
