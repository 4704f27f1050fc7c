// The interact state's channels (state.ts): most fields are replaced by a node's update, with a
// default for a new task. Each feature declares its own fields with it, beside its code.
import { Annotation } from '@langchain/langgraph';

/** A field a node's update replaces; `fallback` is its value in a new task. */
export const replace = <T>(fallback: () => T) =>
  Annotation<T>({ reducer: (_old, next) => next, default: fallback });
