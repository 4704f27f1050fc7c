// High-risk actions (OWASP LLM06, excessive agency): paying, buying, deleting and sending
// messages are not undone by a later step, so the task pauses on them until the user approves,
// edits or rejects. The server flags them on its response from the target's role and name; the
// extension classifies again before executing, with what only the page knows (the form a button
// submits) and the user's own marks, and pauses when either says so.
//
// Risk is judged by effect, not by one language's wording: a model that obeys the
// page is steered by names an attacker writes, so every listed language is matched whatever the
// page claims to be, an amount on a button is a payment whatever its verb, and a generic
// "Continue" or an Enter in a field is judged by what its form is about. The words are data, in
// risk-words.ts.
import { z } from 'zod';
import { ACTION_MAX_LENGTH, type ParsedAction } from './action-grammar';
import {
  AMOUNT_SAFE_PHRASES,
  CURRENCY_CODES,
  CURRENCY_SYMBOLS,
  FILLER_WORDS,
  RISK_LANGS,
  RISK_PHRASES,
  SUBMIT_PHRASES,
  TOPIC_PHRASES,
  type PhraseList,
  type RiskLang,
  type RiskWordKind,
} from './risk-words';

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
  /**
   * Text around the target as the caller knows it (its form's field names, the page title,
   * headings): what a generic "Continue" or an Enter in a field submits.
   */
  context?: string;
  /**
   * The page's language ("de", "pt-BR"): it only picks which phrase a reason quotes. Matching
   * uses every language, since a page can lie about its own.
   */
  lang?: string;
}

export const FormKind = z.enum(['payment', 'delete', 'message']);
export type FormKind = z.infer<typeof FormKind>;

// Roles whose click only edits a field: typing into a box named "Delete reason" deletes nothing.
export const FIELD_ROLES: ReadonlySet<string> = new Set([
  'inp',
  'txt',
  'sel',
  'combo',
  'chk',
  'radio',
  'sw',
  'sld',
  'edit',
]);
// Controls that commit what they name. An amount on them is what they pay; a link or a tab
// named with a price only leads to the product ("Show price $120").
const COMMIT_ROLES = new Set(['btn', 'button', 'menu', 'menuitem', 'submit']);

const VERB: Record<RiskWordKind, string> = {
  payment: 'Pays',
  purchase: 'Buys',
  delete: 'Deletes',
  message: 'Sends',
};

const FORM_VERB: Record<FormKind, string> = {
  payment: 'Submits a payment form',
  delete: 'Submits a delete form',
  message: 'Sends a message form',
};

type Topic = RiskWordKind | 'credentials';
const TOPICS: readonly Topic[] = ['payment', 'purchase', 'delete', 'message', 'credentials'];
// Credentials sent to a page are handed to whoever runs it: the card says what is sent.
const TOPIC_KIND: Record<Topic, RiskWordKind> = {
  payment: 'payment',
  purchase: 'purchase',
  delete: 'delete',
  message: 'message',
  credentials: 'message',
};
const TOPIC_NOUN: Record<Topic, string> = {
  payment: 'a payment',
  purchase: 'an order',
  delete: 'a deletion',
  message: 'a message',
  credentials: 'credentials',
};

const quote = (text: string) => `“${text.length > 120 ? `${text.slice(0, 120)}…` : text}”`;

// Characters that render as nothing (or only reorder text): an attacker can hide them inside
// "Pa\u200By" so that no word matches. Removed before anything is compared.
const INVISIBLE =
  /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\u034f|\u17b4|\u17b5/gu;
const APOSTROPHES = /[\u2018\u2019\u201b\u02bc\u02b9\u0060\u00b4\u2032]/gu;
// Only the combining marks of Latin, Greek and Cyrillic letters: kana voicing marks are part of
// the word and stay.
const ACCENTS = /[\u0300-\u036f]/gu;

/**
 * A name or phrase as risk matching compares it: NFKC (full-width and compatibility forms become
 * plain), invisible characters dropped, lower case, accents stripped, whitespace collapsed.
 */
export function normalizeRiskText(text: string): string {
  return text
    .replace(INVISIBLE, '')
    .replace(APOSTROPHES, "'")
    .normalize('NFKC')
    .toLowerCase()
    .replace(/ß/gu, 'ss')
    .replace(/ı/gu, 'i')
    .normalize('NFD')
    .replace(ACCENTS, '')
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .trim();
}

// Scripts written without spaces between words: a phrase in them matches anywhere.
const SPACELESS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

// Matching cost: ~700 phrases, each its own regex with Unicode-class boundaries, cost
// ~200 ms of regex compilation on a process's first steps (every step's response is judged, on
// the request's event loop) and ~0.1 ms per judged action after. Each list is screened by one
// regex of all its phrases; a phrase's own regex, which says which phrase matched (the reason
// quotes it), is compiled only on a hit.
interface Phrase {
  /** As the list writes it, for a reason to quote. */
  text: string;
  lang: RiskLang;
  /** The regex source that finds it as a whole word (anywhere in spaceless scripts). */
  body: string;
  spaceless: boolean;
  /** Compiled on first use. */
  re?: RegExp;
}

function compilePhrase(phrase: string, lang: RiskLang): Phrase {
  const stem = phrase.endsWith('*');
  const text = stem ? phrase.slice(0, -1) : phrase;
  const core = normalizeRiskText(text);
  const body = escapeRe(core).replace(/ /gu, '[\\s\\-]+') + (stem ? '[\\p{L}\\p{M}]*' : '');
  return { text, lang, body, spaceless: SPACELESS.test(core) };
}

const WORD_BEFORE = '(?<![\\p{L}\\p{N}])';
const WORD_AFTER = '(?![\\p{L}\\p{N}])';

/** One regex source that finds any of `phrases`, trying them in order at each position. */
function anyOf(phrases: readonly Phrase[]): string {
  const spaced = phrases.filter((p) => !p.spaceless).map((p) => p.body);
  const spaceless = phrases.filter((p) => p.spaceless).map((p) => p.body);
  const parts = [
    ...(spaced.length ? [`${WORD_BEFORE}(?:${spaced.join('|')})${WORD_AFTER}`] : []),
    ...(spaceless.length ? [`(?:${spaceless.join('|')})`] : []),
  ];
  return parts.length ? parts.join('|') : '(?!)';
}

function phraseRe(phrase: Phrase): RegExp {
  phrase.re ??= new RegExp(anyOf([phrase]), 'u');
  return phrase.re;
}

interface CompiledList {
  byLang: Readonly<Record<RiskLang, readonly Phrase[]>>;
  /** Whether any phrase of any language is in a text: most names hold none. */
  screen: RegExp;
}

function compileList(list: PhraseList): CompiledList {
  const byLang = {} as Record<RiskLang, readonly Phrase[]>;
  for (const lang of RISK_LANGS) byLang[lang] = list[lang].map((p) => compilePhrase(p, lang));
  return { byLang, screen: new RegExp(anyOf(Object.values(byLang).flat()), 'u') };
}

const RISK = {
  payment: compileList(RISK_PHRASES.payment),
  purchase: compileList(RISK_PHRASES.purchase),
  delete: compileList(RISK_PHRASES.delete),
  message: compileList(RISK_PHRASES.message),
} satisfies Record<RiskWordKind, CompiledList>;
const TOPIC: Record<Topic, CompiledList> = {
  payment: compileList(TOPIC_PHRASES.payment),
  purchase: compileList(TOPIC_PHRASES.purchase),
  delete: compileList(TOPIC_PHRASES.delete),
  message: compileList(TOPIC_PHRASES.message),
  credentials: compileList(TOPIC_PHRASES.credentials),
};
const AMOUNT_SAFE = compileList(AMOUNT_SAFE_PHRASES);
// Every generic name, longest first, so "next step" is stripped whole before "next" would leave
// "step" behind.
const SUBMIT = new RegExp(
  anyOf(
    RISK_LANGS.flatMap((lang) => SUBMIT_PHRASES[lang].map((p) => compilePhrase(p, lang))).sort(
      (a, b) => b.text.length - a.text.length,
    ),
  ),
  'gu',
);
const FILLERS = new Set(FILLER_WORDS.map(normalizeRiskText));

const alternation = (items: readonly string[]) =>
  [...new Set(items.map(normalizeRiskText))]
    .sort((a, b) => b.length - a.length)
    .map(escapeRe)
    .join('|');
const NUMBER = String.raw`(?:\d{1,3}(?:[.,' ]\d{3})+|\d+)(?:[.,]\d{1,2})?(?:[.,]-{1,2})?`;
const SYMBOL = `(?:${alternation(CURRENCY_SYMBOLS)})`;
const CODE = `(?:${alternation(CURRENCY_CODES)})`;
// An amount is a number with a currency sign or code on either side: "£4,800", "1.234,50 €",
// "USD 12", "4,800.00 GBP", "5000円". Codes are whole words, so "2 Europe" holds no amount.
const AMOUNT = new RegExp(
  [
    `${SYMBOL} ?-?${NUMBER}`,
    `${NUMBER} ?${SYMBOL}`,
    `(?<![\\p{L}\\p{N}])${CODE}\\.? ?-?${NUMBER}`,
    `${NUMBER} ?${CODE}(?![\\p{L}\\p{N}])`,
  ].join('|'),
  'u',
);

/** Whether `text` holds a currency amount ("4,800.00 GBP", "£4,800", "¥5000"). */
export function hasCurrencyAmount(text: string): boolean {
  return AMOUNT.test(normalizeRiskText(text));
}

function langOrder(lang: string | undefined): readonly RiskLang[] {
  const base = lang?.trim().toLowerCase().split(/[-_]/u)[0];
  const preferred = RISK_LANGS.find((l) => l === base);
  return preferred ? [preferred, ...RISK_LANGS.filter((l) => l !== preferred)] : RISK_LANGS;
}

function findPhrase(
  list: CompiledList,
  text: string,
  langs: readonly RiskLang[],
): Phrase | undefined {
  if (!list.screen.test(text)) return undefined;
  for (const lang of langs) {
    const hit = list.byLang[lang].find((p) => phraseRe(p).test(text));
    if (hit) return hit;
  }
  return undefined;
}

/** What a control's own name commits, by its verbs or, on a commit control, its amount. */
function nameKind(text: string, role: string | undefined): RiskWordKind | null {
  if (!text) return null;
  const langs = RISK_LANGS;
  if (findPhrase(RISK.payment, text, langs)) return 'payment';
  if (findPhrase(RISK.purchase, text, langs)) return 'purchase';
  if (findPhrase(RISK.delete, text, langs)) return 'delete';
  if (
    (role === undefined || COMMIT_ROLES.has(role)) &&
    AMOUNT.test(text) &&
    !findPhrase(AMOUNT_SAFE, text, langs)
  )
    return 'payment';
  if (findPhrase(RISK.message, text, langs)) return 'message';
  return null;
}

/** A name that says nothing of what it does: only "Continue", "OK", "Weiter"… and fillers. */
function isGenericName(text: string): boolean {
  const rest = text.replace(SUBMIT, ' ');
  if (rest === text) return false;
  return rest.split(/[^\p{L}\p{N}']+/u).every((word) => word === '' || FILLERS.has(word));
}

/** What a form is about, as `text` (its fields, title, headings) says: the first topic found. */
function topicOf(
  text: string,
  langs: readonly RiskLang[],
): { topic: Topic; evidence: string } | null {
  if (!text) return null;
  for (const topic of TOPICS) {
    const hit =
      (topic === 'credentials' ? undefined : findPhrase(RISK[topic], text, langs)) ??
      findPhrase(TOPIC[topic], text, langs);
    if (hit) return { topic, evidence: hit.text };
    const amount = topic === 'payment' ? AMOUNT.exec(text) : null;
    if (amount) return { topic, evidence: amount[0] };
  }
  return null;
}

function markRisk(name: string, marks: readonly string[]): Omit<ActionRisk, 'index'> | null {
  const text = normalizeRiskText(name);
  if (!text) return null;
  const mark = marks.map(normalizeRiskText).find((m) => m !== '' && text.includes(m));
  return mark ? { kind: 'user_marked', reason: `You asked to approve ${quote(name)} first` } : null;
}

/** A click (or Enter on a focused control): what the control, its form or its context commit. */
function controlRisk(
  target: RiskTarget,
  marks: readonly string[],
): Omit<ActionRisk, 'index'> | null {
  if (target.role && FIELD_ROLES.has(target.role)) return null;
  const name = (target.name ?? '').trim();
  if (target.form) {
    return {
      kind: target.form,
      reason: `${FORM_VERB[target.form]}${name ? `: ${quote(name)}` : ''}`,
    };
  }
  const text = normalizeRiskText(name);
  const kind = nameKind(text, target.role);
  if (kind) return { kind, reason: `${VERB[kind]}: ${quote(name)}` };
  if ((target.role === undefined || COMMIT_ROLES.has(target.role)) && isGenericName(text)) {
    const about = topicOf(normalizeRiskText(target.context ?? ''), langOrder(target.lang));
    if (about)
      return {
        kind: TOPIC_KIND[about.topic],
        reason: `Submits a form about ${TOPIC_NOUN[about.topic]} (${quote(about.evidence)}): ${quote(name)}`,
      };
  }
  return markRisk(name, marks);
}

/**
 * Enter in a field submits its form: risky when the field, or the form around it, is about a
 * payment, an order, a deletion, a message or credentials.
 */
function enterRisk(target: RiskTarget, marks: readonly string[]): Omit<ActionRisk, 'index'> | null {
  if (target.role && !FIELD_ROLES.has(target.role)) return controlRisk(target, marks);
  const name = (target.name ?? '').trim();
  const where = `by pressing Enter${name ? ` in ${quote(name)}` : ''}`;
  if (target.form) return { kind: target.form, reason: `${FORM_VERB[target.form]} ${where}` };
  const langs = langOrder(target.lang);
  const own = topicOf(normalizeRiskText(name), langs);
  if (own)
    return {
      kind: TOPIC_KIND[own.topic],
      reason: `Submits a form about ${TOPIC_NOUN[own.topic]} ${where}`,
    };
  const around = topicOf(normalizeRiskText(target.context ?? ''), langs);
  if (around)
    return {
      kind: TOPIC_KIND[around.topic],
      reason: `Submits a form about ${TOPIC_NOUN[around.topic]} (${quote(around.evidence)}) ${where}`,
    };
  return markRisk(name, marks);
}

/** Keys that submit the focused field's form (or press the focused control). */
export function isSubmitKey(key: string): boolean {
  const last = key.split('+').at(-1)?.trim().toLowerCase();
  return last === 'enter' || last === 'numpadenter' || last === 'return';
}

/**
 * Whether `action` on `target` is high-risk, and why; null when it is not. What commits an
 * effect is judged: a click (or a clickAt, on the element the caller found at that point) and
 * Enter, which submits the focused field's form (`target` is that field). A typed value, a
 * chosen option, a hover or a scroll commit nothing until a button or a key sends them, and that
 * is what gets classified. `marks` are the user's own phrases: an element whose name holds one
 * pauses too.
 */
export function actionRisk(
  action: ParsedAction,
  target: RiskTarget | undefined,
  marks: readonly string[] = [],
): Omit<ActionRisk, 'index'> | null {
  if (!target) return null;
  switch (action.name) {
    case 'click':
    case 'clickAt':
      return controlRisk(target, marks);
    case 'press':
      return isSubmitKey(action.args.key) ? enterRisk(target, marks) : null;
    default:
      return null;
  }
}

/**
 * Index of the chain action whose target has the focus when `actions[index]` runs: the last
 * field typed into, chosen from or clicked before it; undefined when nothing in the chain says
 * (it starts there, or a clickAt, a navigation or a Tab moved the focus somewhere unknown).
 */
export function focusedIndexBefore(
  actions: readonly ParsedAction[],
  index: number,
): number | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const action = actions[i];
    if (!action) return undefined;
    switch (action.name) {
      case 'setValue':
      case 'select':
      case 'click':
        return i;
      case 'hover':
      case 'scroll':
      case 'wait':
        continue;
      case 'press':
        // Other keys (arrows, letters) leave the focus where it was; Tab and Enter move it.
        if (isSubmitKey(action.args.key) || /tab$/iu.test(action.args.key)) return undefined;
        continue;
      default:
        return undefined;
    }
  }
  return undefined;
}

const joinContext = (...parts: (string | undefined)[]) =>
  parts.filter((part) => part?.trim()).join(' · ') || undefined;

// A target with only a context (the page title) names no element: the chain may know it.
const knowsElement = (target: RiskTarget | undefined): boolean =>
  target?.role !== undefined || target?.name !== undefined;

/**
 * The risks of a response's actions (a chain, or one action as a chain of one). A chain says
 * what its form is about: the names of the fields it fills join each target's context, and an
 * Enter whose target `targetOf` does not know is judged on the field the chain left focused.
 */
export function actionsRisks(
  actions: readonly ParsedAction[],
  targetOf: (action: ParsedAction, index: number) => RiskTarget | undefined,
  marks: readonly string[] = [],
): ActionRisk[] {
  const targets = actions.map((action, index) => targetOf(action, index));
  const fields = actions.flatMap((action, index) => {
    const target = targets[index];
    const isField =
      action.name === 'setValue' ||
      action.name === 'select' ||
      (target?.role !== undefined && FIELD_ROLES.has(target.role));
    const name = target?.name?.trim();
    return isField && name ? [name] : [];
  });
  const chainContext = [...new Set(fields)].join(' · ');
  return actions.flatMap((action, index) => {
    const given = targets[index];
    let target = given;
    if (action.name === 'press' && !knowsElement(given)) {
      const focused = focusedIndexBefore(actions, index);
      const field = focused === undefined ? undefined : targets[focused];
      if (field && knowsElement(field))
        target = {
          ...field,
          context: joinContext(field.context, given?.context),
          lang: given?.lang ?? field.lang,
        };
    }
    if (chainContext) target = { ...target, context: joinContext(target?.context, chainContext) };
    const risk = actionRisk(action, target, marks);
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
