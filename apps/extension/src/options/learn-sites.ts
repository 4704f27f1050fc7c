// The options page's "Learn from pages": the sites the user allowed Tandem to send page content
// from, with add and remove. Kept in storage (settings.ts); the popup's toggle and this list
// stay in step through storage change events.
import {
  LEARN_SITES_KEY,
  loadLearnSites,
  setSiteLearning,
  type KeyValueStore,
} from '../shared/settings';
import { readSite } from '../shared/site-input';

import { byId, renderRemovableList, sayer } from './removable-list';

type Watch = (key: string, onChange: () => void) => () => void;

/** Shows the list: one row per site with its Remove button, or the empty note. */
export function renderLearnSites(
  doc: Document,
  sites: readonly string[],
  onRemove: (site: string) => void,
): void {
  renderRemovableList(
    doc,
    { list: 'learn-sites', empty: 'learn-empty' },
    sites.map((site) => ({ text: site, key: site })),
    onRemove,
  );
}

/** Wires the section to storage: shows the list, adds and removes sites. */
export async function mountLearnSites(
  doc: Document,
  storage: KeyValueStore,
  watch?: Watch,
): Promise<void> {
  const say = sayer(doc, 'learn-message');
  const change = (site: string, allowed: boolean) =>
    setSiteLearning(storage, site, allowed).then(
      (sites) => {
        show(sites);
        say(allowed ? `Tandem may learn from ${site}.` : `Tandem no longer learns from ${site}.`);
      },
      (error: unknown) => say(error instanceof Error ? error.message : String(error), true),
    );
  const show = (sites: readonly string[]) =>
    renderLearnSites(doc, sites, (site) => void change(site, false));
  show(await loadLearnSites(storage));
  watch?.(LEARN_SITES_KEY, () => void loadLearnSites(storage).then(show));

  byId<HTMLFormElement>(doc, 'learn-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = byId<HTMLInputElement>(doc, 'learn-site');
    const typed = readSite(input.value);
    if ('error' in typed) {
      say(typed.error, true);
      return;
    }
    input.value = '';
    void change(typed.site, true);
  });
}
