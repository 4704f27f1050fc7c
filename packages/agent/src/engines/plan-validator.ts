// Plan validator (docs/specs.md, "dynamic re-planning", "Plan Health Check"): after a re-planning
// trigger (URL path change or DOM similarity < 70%), does the rest of the plan still fit the
// page? Deterministic, no LLM: it reads the targets the remaining steps name and looks them
// up in the new tree with the same parser and resolver step refinement uses, so "present"
// here means "step refinement can find it there".
//
// The rule, over the remaining steps (from `currentStepIndex`, the step about to run,
// skipping steps already completed or skipped):
//   continue    the next step names no target ("press Enter", "Go back"), or its target is
//               on the page; also when no steps remain. The plan still fits: carry on.
//   modify      the next step's target is missing but a later step's target is present:
//               the page still belongs to the plan, the path to it changed (a new dialog,
//               a renamed button, an extra page), so patching from here is enough.
//   regenerate  the next step's target is missing and so is every later named target (or no
//               later step names one): the plan was made for another page.
// Only the next step decides between continue and the other two: later targets may well
// appear only after the next step runs (the form behind "Click 'New/Search'"), so their
// absence alone says nothing.
//
// A target counts as present when an interactive element of a compatible role has a
// matching name (case- and punctuation-insensitive; target-resolver's name score), even if
// it is disabled or covered by a dialog: the plan still fits the page, and getting past a
// disabled Save or a covering dialog is step-level work (refinement, action generation,
// correction). An ambiguous match (two "Save" buttons) is present too.
import type { Plan, SemanticNodeV3 } from '@tandem/contracts';
import { parseCommand, type CommandIntent } from './command-parser';
import { isInteractiveRole, type ReplanReason } from './dom-similarity';
import { resolveIntent } from './target-resolver';

export type PlanVerdict = 'continue' | 'modify' | 'regenerate';

export interface PlanValidation {
  verdict: PlanVerdict;
  reason: string;
  /** Targets of the remaining steps that are not on the page, in plan order, once each. */
  missingTargets: string[];
}

export type TargetedIntent = Extract<CommandIntent, { target: string }>;

// Where a second action starts in a step that packs two ("Click 'Save' and then wait for the
// confirmation"); parseCommand refuses those whole, the first clause still names a target.
const CLAUSE_BREAK =
  /;|,?\s*\b(?:and\s+then|then|after\s+that|afterwards)\b|\s+and\s+(?=(?:also\s+)?(?:click|tap|press|type|enter|fill|select|choose|open|go|navigate|submit|save|check|search|wait|verify)\b)/i;

// "Fill the form with the patient's details" parses, but "form" is not an element name.
const VAGUE_TARGET = /\b(form|page|fields|details|everything|all)\b/i;

/** The targeted intent a plan step names, or null when it names no element. */
export function stepIntent(description: string): TargetedIntent | null {
  const text = description.trim();
  const intent = parseCommand(text) ?? parseCommand(text.split(CLAUSE_BREAK, 1)[0] ?? '');
  if (!intent || !('target' in intent)) return null;
  return VAGUE_TARGET.test(intent.target) ? null : intent;
}

// The resolver refuses disabled and covered elements (it picks what to click now); the
// validator asks whether the element exists, so both are made eligible here. Non-interactive
// nodes are dropped so a heading "Patients" cannot stand in for the Patients button.
function presenceTree(tree: readonly SemanticNodeV3[]): SemanticNodeV3[] {
  return tree
    .filter((n) => isInteractiveRole(n.r))
    .map((n) => {
      const states = (n.s ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '' && s !== 'disabled');
      return { ...n, occ: false, s: states.length > 0 ? states.join(',') : undefined };
    });
}

interface CheckedStep {
  description: string;
  target: string | null;
  present: boolean;
}

const quote = (s: string) => `"${s}"`;

function missingOnce(steps: readonly CheckedStep[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of steps) {
    if (s.target === null || s.present || seen.has(s.target.toLowerCase())) continue;
    seen.add(s.target.toLowerCase());
    out.push(s.target);
  }
  return out;
}

export function validatePlan(input: {
  plan: Plan;
  currentStepIndex: number;
  tree: readonly SemanticNodeV3[];
  url: string;
  trigger: ReplanReason;
}): PlanValidation {
  const { currentStepIndex: from } = input;
  if (!Number.isInteger(from) || from < 0) {
    throw new RangeError(`currentStepIndex must be a non-negative integer, got ${from}`);
  }
  const tree = presenceTree(input.tree);
  const steps: CheckedStep[] = input.plan.steps
    .slice(from)
    .filter((s) => s.status !== 'completed' && s.status !== 'skipped')
    .map((s) => {
      const intent = stepIntent(s.description);
      return {
        description: s.description,
        target: intent?.target ?? null,
        present: intent !== null && resolveIntent(intent, tree).kind !== 'not_found',
      };
    });
  const missingTargets = missingOnce(steps);
  const context = `after ${input.trigger.replace(/_/g, ' ')} (${input.url})`;
  const [next, ...later] = steps;
  if (!next) return { verdict: 'continue', reason: `${context}: no steps remain`, missingTargets };
  if (next.target === null || next.present) {
    const why = next.target === null ? 'names no element' : `target ${quote(next.target)} is here`;
    return {
      verdict: 'continue',
      reason: `${context}: the next step (${next.description}) ${why}`,
      missingTargets,
    };
  }
  const found = later.filter((s) => s.present).map((s) => quote(s.target ?? ''));
  if (found.length > 0) {
    return {
      verdict: 'modify',
      reason: `${context}: ${quote(next.target)} for the next step (${next.description}) is not on the page, but later targets are (${found.join(', ')})`,
      missingTargets,
    };
  }
  return {
    verdict: 'regenerate',
    reason: `${context}: none of the remaining targets is on the page (${missingTargets.map(quote).join(', ')})`,
    missingTargets,
  };
}
