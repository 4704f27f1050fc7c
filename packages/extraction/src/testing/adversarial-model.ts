// The scripted model of the adversarial suite. The general scripted model (read-content.ts)
// parses "$"-prices and table headers it knows, so it cannot read "1 234,50 €", a badge-led
// name or a shipments table the way a real model would. This one is told which items exist
// (the scenario's ShownItems, decoys included) and answers, from its prompt alone, the real
// items whose text it finds there, each with the fields whose text it finds next to it. Ads and
// other entities are recognised and skipped, as a careful model does: the recipe learned from
// its answer therefore has negatives on the page it learns from.
import type { ShownItem, Item } from './adversarial-pages';
import { contentOf, fieldsOf, requiredOf, schemaOf } from './read-content';
import { scriptedExtractionLlm, type ScriptedExtractionLlm } from './scripted-extraction-llm';

/** Whitespace (nbsp and narrow nbsp included) as one space; Markdown escapes dropped. */
const flat = (text: string) => text.replace(/\\(?=[^\s])/g, '').replace(/\s+/g, ' ');

interface Spot {
  at: number;
  shown: ShownItem;
}

function spotsOf(content: string, known: readonly ShownItem[]): Spot[] {
  const spots: Spot[] = [];
  const seen = new Set<string>();
  for (const shown of known) {
    const key = flat(shown.key);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    for (let at = content.indexOf(key); at >= 0; at = content.indexOf(key, at + key.length)) {
      spots.push({ at, shown });
    }
  }
  return spots.sort((a, b) => a.at - b.at);
}

/** The text that belongs to the item at `spot`: its table row, else up to the next item. */
function windowOf(content: string, spots: readonly Spot[], index: number): string {
  const spot = spots[index] as Spot;
  const lineStart = content.lastIndexOf('\n', spot.at) + 1;
  const lineEnd = content.indexOf('\n', spot.at);
  const line = content.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  if (/^\s*\|/.test(line)) return flat(line);
  return flat(content.slice(spot.at, spots[index + 1]?.at ?? spot.at + 600));
}

/** The answer for a prompt: the known real items found in its page content, in page order. */
export function answerKnownItems(prompt: string, known: readonly ShownItem[]): { data: Item[] } {
  const schema = schemaOf(prompt) ?? {};
  const fields = fieldsOf(schema).map((field) => field.name);
  const required = requiredOf(schema);
  // Lines stay: a table row is the unit of a table's item.
  const content = contentOf(prompt).replace(/[^\S\n]+/g, ' ');
  const spots = spotsOf(content, known);
  const items: Item[] = [];
  const answered = new Set<string>();
  spots.forEach((spot, index) => {
    const { item, display, key } = spot.shown;
    if (!item || answered.has(key)) return;
    const text = windowOf(content, spots, index);
    const found: Item = {};
    for (const field of fields) {
      const value = item[field];
      const shownText = display[field];
      if (value === undefined || shownText === undefined) continue;
      if (text.includes(flat(shownText))) found[field] = value;
    }
    if (!required.every((name) => found[name] !== undefined)) return;
    answered.add(key);
    items.push(found);
  });
  return { data: items };
}

/** A scripted extraction model that knows these items (and decoys) and reads only its prompt. */
export function knownItemsModel(known: readonly ShownItem[]): ScriptedExtractionLlm {
  return scriptedExtractionLlm({
    model: 'scripted-known-items',
    fault: (call) => ({ answer: answerKnownItems(call.prompt, known) }),
  });
}
