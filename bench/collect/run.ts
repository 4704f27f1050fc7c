// bench/collect: streaming extraction promises O(1) context (docs/specs.md, "O(1) context") — the
// items live in the store, the prompt carries counts only. A scripted collection run of 100 steps
// (one job per step: open a card, collect it) through the real graph, store and prompts, over the
// interactive trees the page library captures from the demo job board in Chromium; the figure
// is the action prompt's size in tokens (o200k) when item 1 is collected vs when item 100 is.
// Target: item 100 ≤ 1.05 × item 1. The same run over a two-element page is printed as the
// worst case: there the fixed part of the prompt is as small as it gets.
//
//   npm run bench:collect
import type { ScriptedStep } from '@tandem/llm/testing';
import { createTestAgent, pageContextStep, pageRequest } from '@tandem/agent/testing';
import type { SemanticNodeV3 } from '@tandem/contracts';
import { encode } from 'gpt-tokenizer';
import { captureBoardPages, type BoardPage } from './board-trees';

const ITEMS = 100;
const TARGET_RATIO = 1.05;

/** The page step k acts on, and the card it opens there. */
function pageAt(pages: BoardPage[], k: number): { page: BoardPage; card: SemanticNodeV3 } {
  const page = pages[(k - 1) % pages.length] as BoardPage;
  const cards = page.tree.filter((node) => node.r === 'btn');
  const card = cards[Math.floor((k - 1) / pages.length) % cards.length];
  if (!card) throw new Error(`no job card on ${page.url}`);
  return { page, card };
}

/** A stand-in list page of two elements: the smallest prompt a step can have. */
const minimalPages: BoardPage[] = [1, 2, 3].map((n) => ({
  url: `https://jobs.example/${n}`,
  tree: [
    { i: `card-${n}`, r: 'btn', n: `Open job ${n}` },
    { i: `next-${n}`, r: 'link', n: 'Next page' },
  ],
}));

/** `collecting: false` is the control run: same steps and pages, no items. */
function script(pages: BoardPage[], collecting: boolean): ScriptedStep[] {
  const steps: ScriptedStep[] = [
    pageContextStep('the board is open'),
    {
      node: 'planning',
      output: {
        goal: 'collect jobs',
        steps: [{ description: 'Collect every job, one page at a time', refinable: false }],
      },
    },
  ];
  for (let k = 1; k <= ITEMS; k++) {
    steps.push(
      {
        node: 'action_generation',
        output: {
          thought: `Collected the open job (${k}/${ITEMS}); opening the next card.`,
          action: `click("${pageAt(pages, k).card.i}")`,
          chain: null,
          confidence: 0.9,
          // A realistic item: ~120 tokens of data that must never come back into a prompt.
          collect: collecting
            ? [
                {
                  type: 'job',
                  data: {
                    jobId: `J-${10_000 + k}`,
                    title: `Senior Platform Engineer ${k}`,
                    company: `Company ${k} GmbH`,
                    location: 'Berlin, Germany (hybrid)',
                    salary: `€${80 + (k % 40)}k–€${110 + (k % 40)}k`,
                    description:
                      'Build and run the platform our product teams ship on: Kubernetes, Terraform, observability, on-call with a humane rotation.',
                  },
                },
              ]
            : null,
        },
      },
      {
        node: 'outcome_prediction',
        output: { description: 'the job detail opens', urlShouldChange: false, nextGoal: null },
      },
      {
        node: 'verification',
        output: {
          action_succeeded: true,
          task_completed: false,
          confidence: 0.9,
          reason: 'the job detail is shown',
        },
      },
    );
  }
  return steps;
}

/** Runs the scripted collection; returns the action prompts' token counts per step. */
async function run(pages: BoardPage[], collecting: boolean) {
  const agent = await createTestAgent({
    steps: script(pages, collecting),
    // A long collection is progress, not a loop: lift the step cap and the velocity check.
    limits: { maxStepsPerTask: ITEMS + 10, velocityLimit: ITEMS * 2 },
  });
  const first = pageAt(pages, 1).page;
  let response = await agent.act(
    pageRequest(first.url, first.tree, { query: `Extract ${ITEMS} job listings` }),
  );
  for (let k = 2; k <= ITEMS && response.status === 'executing'; k++) {
    const { page } = pageAt(pages, k);
    response = await agent.act(
      pageRequest(page.url, page.tree, {
        taskId: response.taskId,
        sessionId: response.sessionId,
        lastActionStatus: 'success',
        clientObservations: { didUrlChange: false, didDomMutate: true },
      }),
    );
  }
  const prompts = agent.scripted?.callsFor('action_generation') ?? [];
  if (prompts.length < ITEMS)
    throw new Error(`only ${prompts.length} action prompts (run stopped: ${response.status})`);
  const stored = await agent.store.collectedItems.countByType(
    agent.caller.tenantId,
    response.taskId,
  );
  await agent.store.close();
  return {
    tokens: prompts.map((call) => encode(`${call.system}\n${call.prompt}`).length),
    stored: stored.job ?? 0,
    status: response.status,
  };
}

interface Figures {
  first: number;
  last: number;
  ratio: number;
  /** Collection's own tokens at item 100: the run minus the same run without collect. */
  share: number;
  stored: number;
  status: string;
  peak: number;
}

async function measure(pages: BoardPage[]): Promise<Figures> {
  const collected = await run(pages, true);
  const control = await run(pages, false);
  const at = (tokens: number[], item: number) => tokens[item - 1] ?? NaN;
  const first = at(collected.tokens, 1);
  const last = at(collected.tokens, ITEMS);
  return {
    first,
    last,
    ratio: last / first,
    share: last - at(control.tokens, ITEMS),
    stored: collected.stored,
    status: collected.status,
    peak: Math.max(...collected.tokens),
  };
}

async function main() {
  const board = await measure(await captureBoardPages());
  const minimal = await measure(minimalPages);
  const line = (f: Figures) =>
    `item 1 = ${f.first}, item ${ITEMS} = ${f.last} tokens (peak ${f.peak}); item ${ITEMS} / item 1 = ${f.ratio.toFixed(3)}; collect's own share ${f.share} tokens; ${f.stored} items stored, task ${f.status}`;
  console.log('\nbench/collect — scripted 100-item collection through the real graph and store');
  console.log('  action prompt tokens (system + prompt, o200k):');
  console.log(`  demo job board (trees captured in Chromium): ${line(board)}`);
  console.log(`  two-element page (worst case):              ${line(minimal)}`);
  console.log(
    `  target item ${ITEMS} ≤ ${TARGET_RATIO} × item 1 on the job board: ${board.ratio <= TARGET_RATIO ? 'PASS' : 'MISS'}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
