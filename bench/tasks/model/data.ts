// The scripted model on data scripts. Extraction (docs/specs.md, "extraction overhaul"): ask the
// server to extract the page with the schema, reuse the extraction_id it reports on the next page,
// follow "Next page". Collection (docs/specs.md, "streaming extraction"): read the list through a
// content snapshot, collect every card it shows, page on. Counting, deduplication and limits are
// the server's; the model reads only its prompt (the summaries the server wrote, the URL, the
// element list, the snapshot).
import { jobCardsIn } from '@tandem/demo-sites';
import type { Script } from '../task';
import { elementsIn, historyOf } from '@tandem/agent/testing/model-double';
import type { ActionAnswer } from './steps';

type ExtractScript = Extract<Script, { kind: 'extract' }>;
type CollectScript = Extract<Script, { kind: 'collect' }>;

const wait = 'wait(1)';

/** The running summary of the task's extraction, as the server writes it into the prompt. */
function extractionSummary(prompt: string): { id: string; items: number; pages: number } | null {
  const m = /(\d+) unique items? from (\d+) pages?, extraction_id=([A-Za-z0-9_-]+)/.exec(prompt);
  return m ? { items: Number(m[1]), pages: Number(m[2]), id: m[3] as string } : null;
}

const pageNumber = (prompt: string) => Number(/URL: \S*[?&]page=(\d+)/.exec(prompt)?.[1] ?? 1);

/** The "Next page" link, or a scroll towards the pager when the title says more pages follow. */
function nextPage(prompt: string): ActionAnswer | null {
  const next = elementsIn(prompt).find((e) => /^next page$/i.test(e.name));
  if (next)
    return {
      thought: 'On to the next page.',
      action: `click("${next.id}")`,
      chain: null,
      confidence: 0.9,
    };
  const of = /page (\d+) of (\d+)/i.exec(prompt);
  if (of && Number(of[1]) < Number(of[2]) && historyOf(prompt).trailingScrolls < 4)
    return {
      thought: 'The pager is further down.',
      action: 'scroll("down")',
      chain: null,
      confidence: 0.9,
    };
  return null;
}

export function extractAction(
  script: ExtractScript,
  prompt: string,
): ActionAnswer & { extract?: unknown } {
  const summary = extractionSummary(prompt);
  if (!summary) {
    return {
      thought: 'Extract the products of this page as structured data.',
      action: wait,
      chain: null,
      confidence: 0.9,
      extract: { query: script.query, outputSchema: script.schema },
    };
  }
  if (script.allPages && summary.pages < pageNumber(prompt)) {
    return {
      thought: `This page has the same layout: reuse extraction ${summary.id}.`,
      action: wait,
      chain: null,
      confidence: 0.9,
      extract: { extractionId: summary.id },
    };
  }
  const onward = script.allPages ? nextPage(prompt) : null;
  if (onward) return onward;
  const pages = summary.pages === 1 ? 'page' : 'pages';
  return {
    thought: 'Every page asked for is extracted.',
    action: `finish("Extracted ${summary.items} unique products from ${summary.pages} ${pages}.")`,
    chain: null,
    confidence: 0.9,
  };
}

export function collectAction(
  script: CollectScript,
  prompt: string,
): ActionAnswer & Record<string, unknown> {
  const snapshot = /Snapshot \(content\):\n([\s\S]*?)<\/page_content>/.exec(prompt)?.[1];
  if (!snapshot) {
    return {
      thought: 'Read the list first.',
      action: wait,
      chain: null,
      confidence: 0.9,
      readPage: { mode: 'content', selector: script.selector },
    };
  }
  const cards = jobCardsIn(snapshot);
  const onward = nextPage(prompt) ?? {
    thought: 'No further page.',
    action: `finish("Collected the listings of every page.")`,
    chain: null,
    confidence: 0.9,
  };
  return {
    ...onward,
    thought: `Read ${cards.length} cards on this page. ${onward.thought}`,
    collect: cards.map((data) => ({ type: script.type, data })),
  };
}
