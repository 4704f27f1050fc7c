// What a task may do, whatever the model asks (OWASP LLM01/LLM02/LLM06). Page
// content can talk a model into anything; these rules are deterministic and hold on every
// action the server sends, from any node, chained or not:
// - navigation stays on the task's sites (the start site and the user's additions): a
//   navigate(), or a click on a link or submit button the page marks as leading elsewhere;
// - a secret placeholder is typed only into a field, only of a stored secret, only on its sites;
// - data a page of another site showed is never typed on this one (site-data.ts), nor carried
//   off the task's sites by any other way out: a navigate URL (and every URL inside it), the
//   final answer's links, a web-search query; each read in every form it decodes to, and
//   typed text also joined with what the task typed just before (a number split in pieces);
// - an action the user rejected, or the browser blocked, is not proposed again.
import {
  actionTargetId,
  formatAction,
  isSiteAllowed,
  placeholdersIn,
  safeParseAction,
  sitesText,
  secretPlaceholder,
  secretsPromptLine,
  siteOf,
  siteRefusal,
  urlsIn,
  type ParsedAction,
  type SecretRef,
} from '@tandem/contracts';
import { copiedDataSource, foreignDataSource } from '../engines/site-data';
import { findNode, type PageState } from '../page/page-state';
import type { InteractStateType } from '../state';

export interface ActionPolicy {
  /** The task's sites; empty only in checkpoints older than the rule (then: the page's). */
  sites: readonly string[];
  secrets: readonly SecretRef[];
  siteData: Readonly<Record<string, string[]>>;
  /** What the user wrote (goal, answers): their own words may be typed anywhere. */
  own: string;
  rejected: readonly string[];
  /** What the task typed just before (oldest first): a value split in pieces is read whole. */
  recentTyped: readonly string[];
}

/** The user's own words in the conversation ("User: …" lines). */
const userLines = (conversation: string): string =>
  conversation
    .split('\n')
    .filter((line) => line.startsWith('User: '))
    .join('\n');

export function policyOf(
  state: Pick<
    InteractStateType,
    | 'sites'
    | 'secrets'
    | 'siteData'
    | 'query'
    | 'conversation'
    | 'answer'
    | 'rejectedActions'
    | 'previousActions'
  >,
): ActionPolicy {
  const recentTyped = (state.previousActions ?? []).flatMap((previous) => {
    const parsed = safeParseAction(previous.action);
    const text = parsed.ok ? typedText(parsed.action) : null;
    return text ? [text] : [];
  });
  return {
    sites: state.sites ?? [],
    secrets: state.secrets ?? [],
    siteData: state.siteData ?? {},
    own: [state.query, userLines(state.conversation ?? ''), state.answer ?? ''].join('\n'),
    rejected: state.rejectedActions ?? [],
    recentTyped,
  };
}

/** Pieces typed before, joined with `typed`: the last one to three, before or after it. */
function piecesWith(recent: readonly string[], typed: string): string[] {
  const out = new Set<string>();
  for (let k = 1; k <= Math.min(3, recent.length); k++) {
    const before = recent.slice(-k).join('');
    out.add(before + typed);
    out.add(typed + before);
    const one = recent[recent.length - k] ?? '';
    out.add(one + typed);
    out.add(typed + one);
  }
  return [...out];
}

/** The policy once `action` has been sent too (the next action of a chain is judged with it). */
export function afterAction(policy: ActionPolicy, action: ParsedAction): ActionPolicy {
  const text = typedText(action);
  return text ? { ...policy, recentTyped: [...policy.recentTyped, text].slice(-10) } : policy;
}

/**
 * What the prompt tells the model of the task's limits: where it may go, and the secrets it may
 * type by placeholder. The user set both, so they are instructions, not page data.
 */
export function taskRules(state: Pick<InteractStateType, 'sites' | 'secrets'>): string {
  const sites = state.sites ?? [];
  return [
    sites.length > 0
      ? `This task may only visit ${sites.join(', ')}: navigating anywhere else is refused.`
      : '',
    secretsPromptLine(state.secrets ?? []),
  ]
    .filter(Boolean)
    .join('\n');
}

/** The text an action types or chooses, where a placeholder or foreign data would go. */
function typedText(action: ParsedAction): string | null {
  if (action.name === 'setValue') return action.args.text;
  if (action.name === 'select') return action.args.option;
  return null;
}

function secretProblem(action: ParsedAction, site: string | null, policy: ActionPolicy) {
  const text = typedText(action);
  const everywhere = text ?? (action.name === 'navigate' ? action.args.url : null);
  if (everywhere === null) return null;
  for (const name of placeholdersIn(everywhere)) {
    const placeholder = secretPlaceholder(name);
    if (text === null) return `${placeholder} may only be typed into a field`;
    const secret = policy.secrets.find((s) => s.name === name);
    if (!secret) return `there is no stored secret named ${placeholder}`;
    if (!site || !secret.sites.includes(site))
      return `${placeholder} may only be typed on ${secret.sites.join(', ')}, not on ${site ?? 'this page'}`;
  }
  return null;
}

/**
 * Why the task may not send `action` on `page`, or null. `page` is the page the action runs on
 * (the current one): its site is where a typed value lands and where a link starts.
 */
export function policyProblem(
  action: ParsedAction,
  page: Pick<PageState, 'url' | 'tree'> | null,
  policy: ActionPolicy,
): string | null {
  const site = page ? siteOf(page.url) : null;
  const sites = policy.sites.length > 0 ? policy.sites : site ? [site] : [];
  if (policy.rejected.includes(formatAction(action)))
    return 'it was refused before: the user rejected it, or the browser blocked it';
  if (action.name === 'navigate') {
    const refused = siteRefusal(action.args.url, sites);
    if (refused) return refused;
  }
  const id = actionTargetId(action);
  const leadsTo = id !== undefined && page ? findNode(page.tree, id)?.h : undefined;
  if (leadsTo && !sites.includes(leadsTo))
    return `element "${id}" leads to ${leadsTo}, which is not one of this task's sites (${sites.join(', ')})`;
  const secret = secretProblem(action, site, policy);
  if (secret) return secret;
  const typed = typedText(action);
  const text = typed ?? (action.name === 'navigate' ? action.args.url : null);
  const target = action.name === 'navigate' ? siteOf(action.args.url) : site;
  if (text !== null && target) {
    // Typed pieces are also read joined to the ones typed just before, in either order
    // ("5124" then "49031"), however many were typed between them.
    const joined = typed === null ? [] : piecesWith(policy.recentTyped, typed);
    const source = [text, ...joined].reduce<string | null>(
      (found, candidate) =>
        found ?? foreignDataSource(candidate, target, policy.siteData, policy.own),
      null,
    );
    if (source)
      return `it carries data read on ${source} to ${target}; data never moves between sites`;
  }
  if (action.name === 'finish') return answerProblem(action.args.message ?? '', sites, policy);
  if (action.name === 'fail') return answerProblem(action.args.reason, sites, policy);
  if (action.name === 'googleSearch') return searchProblem(action.args.query, policy);
  return null;
}

/** Where a web search's words go: the search provider, which is no site of any task. */
export const SEARCH_PROVIDER = 'the web-search provider';

/**
 * Why a web search may not send `query`, or null: it would copy data a page showed (and the
 * user did not write) out to the search provider (site-data.ts, copiedDataSource).
 */
export function searchProblem(query: string, policy: Pick<ActionPolicy, 'siteData' | 'own'>) {
  const source = copiedDataSource(query, SEARCH_PROVIDER, policy.siteData, policy.own);
  return source
    ? `the search query carries data read on ${source} to ${SEARCH_PROVIDER}; data never leaves the task's sites`
    : null;
}

/**
 * Why the final answer may not be given, or null: a link in it leads off the task's sites
 * carrying data a page showed (a click on it would hand that data to another site).
 */
export function answerProblem(
  answer: string,
  sites: readonly string[],
  policy: Pick<ActionPolicy, 'siteData' | 'own'>,
): string | null {
  for (const url of urlsIn(answer)) {
    if (isSiteAllowed(url, sites)) continue;
    const target = siteOf(url) ?? url;
    // A query or fragment is where a link carries values: one word of a page there is data.
    // A path names pages ("/opening-hours"): it carries data when it holds a number or two words.
    const { pathname, search, hash } = new URL(url);
    const source =
      foreignDataSource(`${search} ${hash}`, target, policy.siteData, policy.own) ??
      copiedDataSource(pathname, target, policy.siteData, policy.own, true);
    if (source)
      return `the answer links to ${target}, which is not one of this task's sites (${sitesText(sites)}), carrying data read on ${source}`;
  }
  return null;
}

/** The first action of what the state is about to send that the policy refuses, with why. */
export function pendingViolation(state: InteractStateType): string | null {
  const pending = state.pending;
  if (!pending) return null;
  const policy = policyOf(state);
  const texts = pending.chain ? pending.chain.actions.map((a) => a.action) : null;
  const actions = texts ? texts.map((t) => safeParseAction(t)) : [];
  for (const [i, parsed] of actions.entries())
    if (!parsed.ok) return `${texts?.[i] ?? ''} is not an action of the grammar`;
  const all = texts ? actions.flatMap((p) => (p.ok ? [p.action] : [])) : [pending.action];
  let sofar = policy;
  for (const action of all) {
    const problem = policyProblem(action, state.page, sofar);
    if (problem) return `${formatAction(action)}: ${problem}`;
    sofar = afterAction(sofar, action);
  }
  return null;
}
