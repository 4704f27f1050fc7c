// The popup's "Let Tandem learn from this site": the consent of the current tab's site in one
// click, showing whether it is on. The same list as the options page's "Learn from pages".
import {
  LEARN_SITES_KEY,
  loadLearnSites,
  setSiteLearning,
  siteOfUrl,
  type KeyValueStore,
} from '../shared/settings';

type Watch = (key: string, onChange: () => void) => () => void;

/** The sentence under the toggle for the site's current state. */
export function learnStateText(site: string, allowed: boolean): string {
  return allowed
    ? `On: during tasks, the text of ${site}'s pages goes to your tenant's knowledge ` +
        '(the first capture of a page includes its hidden content).'
    : `Off: nothing from ${site} is sent.`;
}

/** Shows the toggle for the tab's page (http(s) only) and keeps it in step with storage. */
export async function mountLearnToggle(
  doc: Document,
  storage: KeyValueStore,
  pageUrl: string | undefined,
  watch?: Watch,
): Promise<void> {
  const site = siteOfUrl(pageUrl);
  const box = doc.getElementById('learn');
  const toggle = doc.getElementById('learn-toggle') as HTMLInputElement | null;
  const state = doc.getElementById('learn-state');
  if (!site || !box || !toggle || !state) return;
  const show = (sites: readonly string[]) => {
    const allowed = sites.includes(site);
    toggle.checked = allowed;
    toggle.title = allowed ? `Stop learning from ${site}` : `Learn from ${site}`;
    state.textContent = learnStateText(site, allowed);
  };
  show(await loadLearnSites(storage));
  box.hidden = false;
  toggle.addEventListener('change', () => {
    void setSiteLearning(storage, site, toggle.checked).then(show);
  });
  watch?.(LEARN_SITES_KEY, () => void loadLearnSites(storage).then(show));
}
