// The scripted model on data scripts, shared by bench:tasks and the e2e fakes. Extraction (docs/specs.md, "extraction overhaul"): ask the
// server to extract the page with the schema, reuse the extraction_id it reports on the next page,
// follow "Next page". Collection (docs/specs.md, "streaming extraction"): read the list through a
// content snapshot, collect every card it shows, page on. Counting, deduplication and limits are
// the server's; the model reads only its prompt (the summaries the server wrote, the URL, the
// element list, the snapshot).
// The cards of a list are read by the caller's reader (the demo sites' jobCardsIn): this package
// does not know the demo sites.
import { elementsIn } from '../page/read-tree';
import { historyOf } from '../nodes/read-history';
import { act, type ActionAnswer } from './model-double';

export interface ExtractScript {
  kind: 'extract';
  query: string;
  schema: Record<string, unknown>;
  allPages: boolean;
  /** The part of the page the first read is scoped to (the strategy keeps it). */
  cssSelector?: string;
}

export interface CollectScript {
  kind: 'collect';
  selector: string;
  type: string;
}

const wait = 'wait(1)';

/** The outcome a model states with a step that is not the last: the next action decides. */
const goesOn = (description: string, urlShouldChange = false) => ({
  outcome: { description, urlShouldChange, completesGoal: false },
});

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
    return act(
      'On to the next page.',
      `click("${next.id}")`,
      goesOn('The next page of the list', true),
    );
  const of = /page (\d+) of (\d+)/i.exec(prompt);
  if (of && Number(of[1]) < Number(of[2]) && historyOf(prompt).trailingScrolls < 4)
    return act('The pager is further down.', 'scroll("down")', goesOn('The pager comes into view'));
  return null;
}

export function extractAction(script: ExtractScript, prompt: string): ActionAnswer {
  const summary = extractionSummary(prompt);
  if (!summary) {
    return act('Extract the products of this page as structured data.', wait, {
      extract: {
        query: script.query,
        outputSchema: script.schema,
        ...(script.cssSelector ? { cssSelector: script.cssSelector } : {}),
      },
      ...goesOn('The page is extracted'),
    });
  }
  if (script.allPages && summary.pages < pageNumber(prompt)) {
    return act(`This page has the same layout: reuse extraction ${summary.id}.`, wait, {
      extract: { extractionId: summary.id },
      ...goesOn('The page is extracted'),
    });
  }
  const onward = script.allPages ? nextPage(prompt) : null;
  if (onward) return onward;
  const pages = summary.pages === 1 ? 'page' : 'pages';
  return act(
    'Every page asked for is extracted.',
    `finish("Extracted ${summary.items} unique products from ${summary.pages} ${pages}.")`,
  );
}

export function collectAction(
  script: CollectScript,
  prompt: string,
  readCards: (snapshot: string) => readonly object[],
): ActionAnswer {
  const snapshot = /Snapshot \(content\):\n([\s\S]*?)<\/page_content>/.exec(prompt)?.[1];
  if (!snapshot) {
    return act('Read the list first.', wait, {
      readPage: { mode: 'content', selector: script.selector },
      ...goesOn('The list is read'),
    });
  }
  const cards = readCards(snapshot);
  const onward =
    nextPage(prompt) ?? act('No further page.', `finish("Collected the listings of every page.")`);
  return {
    ...onward,
    thought: `Read ${cards.length} cards on this page. ${onward.thought}`,
    collect: cards.map((data) => ({ type: script.type, data })),
  };
}
