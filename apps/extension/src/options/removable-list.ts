// A list of the options page's stored entries (sites to learn from, secrets, words to ask
// before), each with its Remove button, or the note that says it is empty. Entries are shown as
// text only: they were typed by the user, but a site or a name is no place for markup.
export interface ListEntry {
  /** What the row shows, in <code>. */
  text: string;
  /** More words after it ("on 127.0.0.1:4000"), if any. */
  detail?: string;
  /** What Remove removes, and names it for screen readers ("Remove app.example.com"). */
  key: string;
}

function byId<T extends HTMLElement>(doc: Document, id: string): T {
  const el = doc.getElementById(id);
  if (!el) throw new Error(`#${id} is missing`);
  return el as T;
}

/** Shows `entries` in the list `listId`, or the note `emptyId` when there are none. */
export function renderRemovableList(
  doc: Document,
  ids: { list: string; empty: string },
  entries: readonly ListEntry[],
  onRemove: (key: string) => void,
): void {
  const list = byId<HTMLUListElement>(doc, ids.list);
  list.replaceChildren(
    ...entries.map((entry) => {
      const item = doc.createElement('li');
      const label = doc.createElement('span');
      const name = doc.createElement('code');
      name.textContent = entry.text;
      label.append(name);
      if (entry.detail) label.append(` ${entry.detail}`);
      const remove = doc.createElement('button');
      remove.type = 'button';
      remove.className = 'secondary';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', `Remove ${entry.key}`);
      remove.addEventListener('click', () => onRemove(entry.key));
      item.append(label, remove);
      return item;
    }),
  );
  list.hidden = entries.length === 0;
  byId(doc, ids.empty).hidden = entries.length > 0;
}

/** A status line under a section: what just happened, or what went wrong. */
export function sayer(doc: Document, id: string): (text: string, error?: boolean) => void {
  const message = byId<HTMLElement>(doc, id);
  return (text, error = false) => {
    message.textContent = text;
    message.className = error ? 'error' : '';
  };
}

export { byId };
