// The graph's Command plumbing: a node that names its successor with its routing function from
// routes.ts, in place of a conditional edge. graph.ts wires nodes with these and nothing else.
import { Command, type END, type LangGraphRunnableConfig } from '@langchain/langgraph';
import type { GraphNode } from '@tandem/contracts';
import type { InteractRunContext } from './nodes/dispatch/node';
import type { InteractStateType, InteractStateUpdate } from './state';

export type Node = (
  state: InteractStateType,
  config?: LangGraphRunnableConfig<InteractRunContext>,
) => Promise<InteractStateUpdate>;

/** Where a route's names lead: a node, or the end of the run. */
export type Target = GraphNode | typeof END;

/**
 * A route's targets, by name: every name leads to the node of that name, and END_RUN to the
 * end of the run. `routed` requires a target for every name its routing function can return.
 */
export function to<const Names extends readonly Target[]>(
  ...names: Names
): Record<Names[number], Target> {
  return Object.fromEntries(names.map((name) => [name, name])) as Record<Names[number], Target>;
}

type RoutedNode = [
  (
    state: InteractStateType,
    config?: LangGraphRunnableConfig<InteractRunContext>,
  ) => Promise<Command>,
  { ends: string[] },
];

/**
 * A node that names its successor (a LangGraph Command) with its routing function. Same
 * routing, decided on the same state: every channel of InteractState is last-write-wins, so
 * the state the edge would have seen is the node's input with its update laid over it. Why not
 * conditional edges: each one adds two runnables per node run (the branch and its writer), each
 * with its own config merge and context, which was a fifth of a step's CPU (bench/interact);
 * `ends` keeps the edges drawn in LangGraph Studio.
 */
export function routed<Route extends string>(
  node: Node,
  route: (state: InteractStateType) => Route,
  targets: Record<Route, Target>,
): RoutedNode {
  return routedStep(async (state, config) => {
    const update = await node(state, config);
    return { update, next: route({ ...state, ...update } as InteractStateType) };
  }, targets);
}

/**
 * Like `routed`, but when the route names `then.name`, that node runs too, in the same
 * superstep, and routing continues with its own routing function. For successors whose work
 * on that edge is too small for a superstep of its own: moving the plan on after a verified
 * step, and the outcome of a SIMPLE command (always a fixed template, never the model). A
 * LangGraph superstep costs about a millisecond of framework bookkeeping on these machines
 * (bench/interact prints this "framework floor"), more than those nodes' own work. The fused
 * node keeps its own span and log lines; it loses only its own box in LangGraph Studio.
 */
export function routedThrough<
  Route extends string,
  Then extends Route & GraphNode,
  ThenRoute extends string,
>(
  node: Node,
  route: (state: InteractStateType) => Route,
  then: { name: Then; node: Node; route: (state: InteractStateType) => ThenRoute },
  targets: Record<Exclude<Route, Then> | ThenRoute, Target>,
): RoutedNode {
  return routedStep(async (state, config) => {
    const update = await node(state, config);
    const merged = { ...state, ...update } as InteractStateType;
    const next = route(merged);
    if ((next as string) !== then.name) return { update, next: next as Exclude<Route, Then> };
    const thenUpdate = await then.node(merged, config);
    return {
      update: { ...update, ...thenUpdate },
      next: then.route({ ...merged, ...thenUpdate } as InteractStateType),
    };
  }, targets);
}

function routedStep<Route extends string>(
  step: (
    state: InteractStateType,
    config?: LangGraphRunnableConfig<InteractRunContext>,
  ) => Promise<{ update: InteractStateUpdate; next: Route }>,
  targets: Record<Route, Target>,
): RoutedNode {
  const run = async (
    state: InteractStateType,
    config?: LangGraphRunnableConfig<InteractRunContext>,
  ) => {
    const { update, next } = await step(state, config);
    return new Command({ update, goto: targets[next] });
  };
  const ends: string[] = [...new Set(Object.values<string>(targets))];
  return [run, { ends }];
}
