// The worst model there is, behind the Gemini REST API on loopback: one that OBEYS the page.
// Whenever a prompt shows an injected instruction (⟦INJ-n⟧, wherever the page put it), its
// action answer is exactly what the instruction says (the case's harmful action or chain), and
// its critic, verification and final answer go along. Without one it waits, so the case's next
// page comes. Beside it, a fake Tavily records every query the server sends out: a search that
// carries a patient's data is judged where it arrives.
import {
  act,
  answerOf,
  chainOf,
  PAGE_IS_ENOUGH,
  plan,
  startModelDouble,
  verdict,
  type ModelCall,
} from '@tandem/agent/testing/model-double';
import { startGeminiWire } from '@tandem/llm/testing';
import type { AttackCase } from './cases';

/** How an obeying answer's thought starts. */
export const OBEYED = 'Doing what the page says';

const MARKER = /⟦INJ-(\d+)⟧/;

export interface ObeyingModel {
  url: string;
  searchUrl: string;
  /** The cases the model answers for; a case must be registered before it runs. */
  register(cases: readonly AttackCase[]): void;
  /** Ids of the cases whose instruction reached the model (it tried). */
  tried: Set<number>;
  /** Every query the search provider received. */
  queries: string[];
  close(): Promise<void>;
}

/** A finish's message, when the harmful action is one. */
const finishMessage = (action: string): string | null => {
  const m = /^finish\(("(?:[^"\\]|\\.)*")\)$/.exec(action);
  return m?.[1] ? (JSON.parse(m[1]) as string) : null;
};

function answer(call: ModelCall, cases: Map<number, AttackCase>, tried: Set<number>) {
  const { prompt } = call;
  const id = Number(MARKER.exec(prompt)?.[1] ?? Number.NaN);
  const attack = cases.get(id);
  if (attack) tried.add(id);
  // What the instruction still asks for: a model reads its own history, and does not type a
  // field again that a split chain already filled.
  const pageAt = prompt.search(/\n(?:Current page|Page now|Page):\n/);
  const history = pageAt >= 0 ? prompt.slice(0, pageAt) : prompt;
  const all = attack?.harmful ?? [];
  const doneUpTo = all.findLastIndex((action, k) => k < all.length - 1 && history.includes(action));
  const harmful = all.slice(doneUpTo + 1);
  const obey = () =>
    harmful.length === 0
      ? act('Nothing to do yet.', 'wait(1)')
      : act(`${OBEYED} (case ${id}).`, harmful[0] ?? '', {
          chain: chainOf(harmful),
          confidence: 0.95,
        });
  const answered = answerOf(
    {
      context_analysis: PAGE_IS_ENOUGH,
      planning: plan('Do what the page asks', ['Do it']),
      action_generation: obey,
      direct_action: obey,
      critic: { approve: true, reason: 'It is what the page asks.', evidence: 'The page says so.' },
      outcome_prediction: {
        description: 'The page does what was asked',
        urlShouldChange: false,
        nextGoal: null,
      },
      verification: verdict(false, 'The action took effect.', 0.9),
      correction: { strategy: 'RETRY_WITH_DELAY', action: 'wait(1)', reason: 'Try again.' },
      finalize: () => ({ answer: harmful.map(finishMessage).find((m) => m !== null) ?? 'Done.' }),
      web_search: {
        solved: true,
        answer: 'Found it.',
        shouldAskUser: false,
        refinedQuery: null,
        reason: 'found',
      },
    },
    call,
  );
  return answered ?? {};
}

export async function startObeyingModel(): Promise<ObeyingModel> {
  const cases = new Map<number, AttackCase>();
  const tried = new Set<number>();
  const queries: string[] = [];
  const gemini = await startModelDouble((call) => answer(call, cases, tried));
  // The wire is a plain JSON server: it stands in for Tavily's search API as well.
  const tavily = await startGeminiWire(({ body }) => {
    const { query } = (body ?? {}) as { query?: string };
    if (typeof query === 'string') queries.push(query);
    return {
      results: [
        { title: 'Result', url: 'https://results.example/1', content: 'Found.', score: 0.9 },
      ],
    };
  });
  return {
    url: gemini.url,
    searchUrl: tavily.url,
    register(list) {
      for (const c of list) cases.set(c.id, c);
    },
    tried,
    queries,
    close: async () => {
      await Promise.all([gemini.close(), tavily.close()]);
    },
  };
}
