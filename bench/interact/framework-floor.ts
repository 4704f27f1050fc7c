// The framework floor: what LangGraph itself costs for the supersteps a request runs, with the
// interact graph's own state (InteractState, every channel) but nodes that do nothing and its
// in-memory checkpointer. Tandem's share of a step is the route's figure minus this one; the
// floor is what no change to Tandem's nodes, store or route can remove.
import { InteractState, type InteractStateType } from '@tandem/agent';
import { Command, MemorySaver, START, StateGraph } from '@langchain/langgraph';

/** A no-op node that names its successor, as the interact graph's nodes do (graph.ts). */
const pass = (next: string): [() => Promise<Command>, { ends: string[] }] => [
  async () => new Command({ update: {}, goto: next }),
  { ends: [next] },
];

/**
 * SIMPLE decision shape: complexity_check → direct_action, paused before dispatch.
 * COMPLEX step shape: resume at dispatch → verification → step_refinement →
 * outcome_prediction, paused before dispatch again (a static interrupt, as in graph.ts).
 */
function floorGraph() {
  return new StateGraph(InteractState)
    .addNode('complexity_check', ...pass('direct_action'))
    .addNode('direct_action', ...pass('dispatch'))
    .addNode(
      'dispatch',
      async (state: InteractStateType) =>
        new Command({ update: { requestCount: state.requestCount + 1 }, goto: 'verification' }),
      { ends: ['verification'] },
    )
    .addNode('verification', ...pass('step_refinement'))
    .addNode('step_refinement', ...pass('outcome_prediction'))
    .addNode('outcome_prediction', ...pass('dispatch'))
    .addEdge(START, 'complexity_check')
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ['dispatch'] });
}

export interface FrameworkFloor {
  simpleDecisionMs: number;
  complexStepMs: number;
}

/** Median per run over `runs` threads, after a warm-up, run sequentially in this process. */
export async function measureFrameworkFloor(runs = 600): Promise<FrameworkFloor> {
  const graph = floorGraph();
  const config = (n: number) => ({
    configurable: { thread_id: `floor-${n}` },
    durability: 'exit' as const,
  });
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  const start: number[] = [];
  const step: number[] = [];
  for (let n = 0; n < runs; n++) {
    let t0 = performance.now();
    await graph.invoke({ taskId: `floor-${n}`, query: 'click Logout' }, config(n));
    start.push(performance.now() - t0);
    t0 = performance.now();
    await graph.invoke(null, config(n));
    step.push(performance.now() - t0);
  }
  // The first runs pay for JIT warm-up; the server's figures are taken warm too.
  const warm = Math.floor(runs / 5);
  return {
    simpleDecisionMs: median(start.slice(warm)),
    complexStepMs: median(step.slice(warm)),
  };
}
