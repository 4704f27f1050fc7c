// Interactive mode (docs/specs.md, "interactive mode"): the V3 semantic tree of captureTree as
// text, one line per element ending with its `@ref:N` id, the id `selector` and the action grammar
// take.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { captureTree } from '../capture/tree';
import { LLM_ID_ATTRIBUTE } from '../dom/elements';
import type { LineFilter } from './grep';
import { pageLine, quote } from './outline-text';

export interface InteractiveOptions {
  doc: Document;
  scope: Element | undefined;
  filter: LineFilter;
  grep?: string;
  url: string;
}

export function nodeLine(node: SemanticNodeV3): string {
  const parts: string[] = [node.r];
  if (node.n) parts.push(quote(node.n));
  if (node.v !== undefined && node.v !== '') parts.push(`=${quote(node.v)}`);
  if (node.s) parts.push(`[${node.s}]`);
  if (node.f) parts.push(`frame=${node.f}`);
  if (node.scr) parts.push(`scroll=${node.scr.depth}`);
  if (node.occ) parts.push('(occluded)');
  parts.push(`@ref:${node.i}`);
  return parts.join(' ');
}

export function renderInteractive(options: InteractiveOptions): string {
  const { doc, scope } = options;
  const capture = captureTree({ document: doc, includeOffscreen: scope !== undefined });
  let nodes = capture.interactiveTree;
  if (scope) {
    // Ids are written by the capture, so the scope's own descendants can be listed after it.
    const inScope = new Set(
      [scope, ...scope.querySelectorAll(`[${LLM_ID_ATTRIBUTE}]`)].map((el) =>
        el.getAttribute(LLM_ID_ATTRIBUTE),
      ),
    );
    nodes = nodes.filter((node) => inScope.has(node.i));
  }
  const stats = [`elements=${nodes.length}`, `scroll=${capture.scrollPosition}`];
  if (options.grep !== undefined) stats.push(`grep=${options.grep}`);
  const lines = [
    pageLine({ url: options.url, title: capture.pageTitle, viewport: capture.viewport }),
    `INTERACTIVE: ${stats.join(' ')}`,
    '',
  ];
  for (const node of nodes) {
    const line = nodeLine(node);
    if (options.filter(line)) lines.push(line);
  }
  return lines.join('\n');
}
