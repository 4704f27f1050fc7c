// High-risk actions (OWASP LLM06, excessive agency): paying, buying, deleting and sending
// messages are not undone by a later step, so the task pauses on them until the user approves,
// edits or rejects. The server flags them on its response from the target's role and name; the
// extension classifies again before executing, with what only the page knows (the form a button
// submits) and the user's own marks, and pauses when either says so.
import { z } from 'zod';
import { ACTION_MAX_LENGTH, type ParsedAction } from './action-grammar';

export const RiskKind = z.enum(['payment', 'purchase', 'delete', 'message', 'user_marked']);
export type RiskKind = z.infer<typeof RiskKind>;

export const ActionRisk = z.object({
  /** Index of the risky action in the response's chain (0 for a single action). */
  index: z.number().int().nonnegative(),
  kind: RiskKind,
  /** Why, for the approval card: "Pays: “Pay $120.00”". */
  reason: z.string().min(1).max(500),
});
export type ActionRisk = z.infer<typeof ActionRisk>;

/** On a response whose action or chain holds a high-risk action: ask the user first. */
export const ApprovalRequest = z.object({
  risks: z.array(ActionRisk).min(1).max(50),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

export const ApprovalDecisionKind = z.enum(['approved', 'edited', 'rejected']);
export type ApprovalDecisionKind = z.infer<typeof ApprovalDecisionKind>;

/** The user's answer to the previous response's approval, reported with the next request. */
export const ApprovalDecision = z.object({
  decision: ApprovalDecisionKind,
  /**
   * `edited`: the action (or chain) as executed, with only its typed text or chosen option
   * changed; the server checks it names the same actions on the same elements.
   */
  actions: z.array(z.string().max(ACTION_MAX_LENGTH)).min(1).max(50).optional(),
  /** `rejected`: what the user said instead, for the model. */
  note: z.string().trim().max(1_000).optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** What is known of an action's target: from the tree (role, name), and from the page (form). */
export interface RiskTarget {
  role?: string;
  name?: string;
  /** The kind of form a submit button sends, as the page shows it (payment fields…). */
  form?: FormKind | null;
}

export const FormKind = z.enum(['payment', 'delete', 'message']);
export type FormKind = z.infer<typeof FormKind>;

// Roles whose click only edits a field: typing into a box named "Delete reason" deletes nothing.
const FIELD_ROLES = new Set(['inp', 'txt', 'sel', 'combo', 'chk', 'radio', 'sw', 'sld', 'edit']);

const NAME_RULES: { kind: Exclude<RiskKind, 'user_marked'>; re: RegExp; verb: string }[] = [
  {
    kind: 'payment',
    re: /\b(pay( now)?|make (a )?payment|submit payment|confirm payment|transfer (money|funds)|send money|donate)\b/i,
    verb: 'Pays',
  },
  {
    kind: 'purchase',
    re: /\b(buy( now)?|purchase|place (your |the )?order|(complete|confirm) (your |the )?(order|purchase)|check ?out|subscribe)\b/i,
    verb: 'Buys',
  },
  {
    kind: 'delete',
    re: /\b(delete|remove|erase|destroy|purge|wipe|deactivate|close (my |your |the )?account|cancel (my |your |the )?(subscription|account))\b/i,
    verb: 'Deletes',
  },
  {
    kind: 'message',
    re: /\b(send|reply( all)?|forward|post|share)\b/i,
    verb: 'Sends',
  },
];

const FORM_VERB: Record<FormKind, string> = {
  payment: 'Submits a payment form',
  delete: 'Submits a delete form',
  message: 'Sends a message form',
};

const quote = (text: string) => `“${text.length > 120 ? `${text.slice(0, 120)}…` : text}”`;

/**
 * Whether `action` on `target` is high-risk, and why; null when it is not. Only clicks are: a
 * typed value or a chosen option commits nothing until a button sends it, and that click is
 * what gets classified. `marks` are the user's own phrases: a click on an element whose name
 * holds one pauses too.
 */
export function actionRisk(
  action: ParsedAction,
  target: RiskTarget | undefined,
  marks: readonly string[] = [],
): Omit<ActionRisk, 'index'> | null {
  if (action.name !== 'click' || !target) return null;
  if (target.role && FIELD_ROLES.has(target.role)) return null;
  const name = (target.name ?? '').trim();
  if (target.form) {
    return {
      kind: target.form,
      reason: `${FORM_VERB[target.form]}${name ? `: ${quote(name)}` : ''}`,
    };
  }
  for (const rule of NAME_RULES) {
    if (name && rule.re.test(name))
      return { kind: rule.kind, reason: `${rule.verb}: ${quote(name)}` };
  }
  const lower = name.toLowerCase();
  const mark = marks.find((m) => m.trim() !== '' && lower.includes(m.trim().toLowerCase()));
  if (mark) return { kind: 'user_marked', reason: `You asked to approve ${quote(name)} first` };
  return null;
}

/** The risks of a response's actions (a chain, or one action as a chain of one). */
export function actionsRisks(
  actions: readonly ParsedAction[],
  targetOf: (action: ParsedAction) => RiskTarget | undefined,
  marks: readonly string[] = [],
): ActionRisk[] {
  return actions.flatMap((action, index) => {
    const risk = actionRisk(action, targetOf(action), marks);
    return risk ? [{ index, ...risk }] : [];
  });
}

/** The user's edit is the same action on the same element, with other text or option only. */
export function isAllowedEdit(original: ParsedAction, edited: ParsedAction): boolean {
  if (original.name !== edited.name) return false;
  switch (original.name) {
    case 'setValue':
      return edited.name === 'setValue' && edited.args.id === original.args.id;
    case 'select':
      return edited.name === 'select' && edited.args.id === original.args.id;
    default:
      return JSON.stringify(original) === JSON.stringify(edited);
  }
}
