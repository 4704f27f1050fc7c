// One colour per LLM action type, fixed by the enum's order so a type keeps its colour across
// windows and pages (a legend that reshuffles colours misleads).
import { LlmActionType } from '@tandem/contracts';

const COLOURS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
  '#1f77b4',
  '#8c564b',
  '#ffbb78',
  '#2ca02c',
  '#9467bd',
  '#c49c94',
  '#17becf',
];

export function colourOf(actionType: string): string {
  const index = (LlmActionType.options as readonly string[]).indexOf(actionType);
  return COLOURS[(index === -1 ? COLOURS.length - 1 : index) % COLOURS.length] ?? '#888888';
}
