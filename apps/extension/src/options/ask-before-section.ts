// The options page's "Always ask before": words that make a click pause for approval, besides
// paying, buying, deleting and sending, which always do.
import { ASK_BEFORE_KEY, loadAskBefore, setAskBefore } from '../shared/ask-before';
import type { KeyValueStore } from '../shared/settings';
import { byId, renderRemovableList, sayer } from './removable-list';

type Watch = (key: string, onChange: () => void) => () => void;

export async function mountAskBefore(
  doc: Document,
  storage: KeyValueStore,
  watch?: Watch,
): Promise<void> {
  const say = sayer(doc, 'ask-message');
  const change = (phrase: string, on: boolean) =>
    setAskBefore(storage, phrase, on).then(
      (phrases) => {
        show(phrases);
        say(
          on
            ? `Tandem will ask before clicking anything named with “${phrase}”.`
            : `“${phrase}” no longer pauses a task.`,
        );
      },
      () => say('Enter a word or a few words (2 to 80 characters).', true),
    );
  const show = (phrases: readonly string[]) =>
    renderRemovableList(
      doc,
      { list: 'ask-list', empty: 'ask-empty' },
      phrases.map((p) => ({ text: p, key: p })),
      (phrase) => void change(phrase, false),
    );
  show(await loadAskBefore(storage));
  watch?.(ASK_BEFORE_KEY, () => void loadAskBefore(storage).then(show));
  byId<HTMLFormElement>(doc, 'ask-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = byId<HTMLInputElement>(doc, 'ask-phrase');
    const phrase = input.value.trim();
    input.value = '';
    void change(phrase, true);
  });
}
