// bench/collect: spec 000 promises O(1) context for streaming extraction — the items live in
// the store, the prompt carries counts only. A scripted collection run of 100 steps (one job
// collected per step, paging on) through the real graph, store and prompts; the figure is the
// action prompt's size in tokens (o200k) when item 1 is collected vs when item 100 is.
// Target: item 100 ≤ 1.05 × item 1.
//
//   pnpm bench:collect
import type { ScriptedStep } from '@tandem/agent';
import { createTestAgent, pageContextStep, pageRequest } from '@tandem/agent/testing';
import type { SemanticNodeV3 } from '@tandem/contracts';
import { encode } from 'gpt-tokenizer';

const ITEMS = 100;
const TARGET_RATIO = 1.05;

const board = (page: number): SemanticNodeV3[] => [
  { i: `card-${page}`, r: 'btn', n: `Open job ${page}` },
  { i: `next-${page}`, r: 'link', n: 'Next job' },
];

/** `collecting: false` is the control run: same steps and pages, no items. */
function script(collecting: boolean): ScriptedStep[] {
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
          thought: `Collected the job on this page (${k}/${ITEMS}); next.`,
          action: `click("next-${k}")`,
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
        output: { description: 'the next job opens', urlShouldChange: true, nextGoal: null },
      },
      {
        node: 'verification',
        output: {
          action_succeeded: true,
          task_completed: false,
          confidence: 0.9,
          reason: 'the next job is shown',
        },
      },
    );
  }
  return steps;
}

/** Runs the scripted collection; returns the action prompts' token counts per step. */
async function run(collecting: boolean) {
  const agent = await createTestAgent({
    steps: script(collecting),
    // A long collection is progress, not a loop: lift the step cap and the velocity check.
    limits: { maxStepsPerTask: ITEMS + 10, velocityLimit: ITEMS * 2 },
  });
  let response = await agent.act(
    pageRequest('https://jobs.example/1', board(1), {
      query: `Extract ${ITEMS} job listings`,
    }),
  );
  for (let k = 2; k <= ITEMS && response.status === 'executing'; k++) {
    response = await agent.act(
      pageRequest(`https://jobs.example/${k}`, board(k), {
        taskId: response.taskId,
        sessionId: response.sessionId,
        lastActionStatus: 'success',
        clientObservations: { didUrlChange: true },
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

async function main() {
  const collected = await run(true);
  const control = await run(false);
  const at = (tokens: number[], item: number) => tokens[item - 1] ?? NaN;
  const first = at(collected.tokens, 1);
  const last = at(collected.tokens, ITEMS);
  const ratio = last / first;
  const share = last - at(control.tokens, ITEMS);
  console.log('\nbench/collect — scripted 100-item collection through the real graph and store');
  console.log(`  items stored: ${collected.stored}; task status: ${collected.status}`);
  console.log(
    `  action prompt tokens (system + prompt, o200k): item 1 = ${first}, item 11 = ${at(collected.tokens, 11)}, item ${ITEMS} = ${last}, peak = ${Math.max(...collected.tokens)}`,
  );
  console.log(
    `  item ${ITEMS} / item 1 = ${ratio.toFixed(3)} (≤ ${TARGET_RATIO} → ${ratio <= TARGET_RATIO ? 'PASS' : 'MISS'}); item ${ITEMS} / item 11 = ${(last / at(collected.tokens, 11)).toFixed(3)}`,
  );
  console.log(
    `  collection's own share at item ${ITEMS} (vs. the same run without collect): ${share} tokens; the rest of the growth is spec 003's 10-action rolling history`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
