// The options page's "Secrets": add (name, value, sites), list by name and sites, remove. A
// value is never shown again once saved, not even here: the list names each secret as the
// agent writes it, {{secret:name}}.
import { SecretName, secretPlaceholder } from '@tandem/contracts';
import {
  loadSecrets,
  removeSecret,
  saveSecret,
  SECRETS_KEY,
  type StoredSecret,
} from '../shared/secrets';
import type { KeyValueStore } from '../shared/settings';
import { parseSites } from '../shared/site-input';
import { byId, renderRemovableList, sayer } from './removable-list';

type Watch = (key: string, onChange: () => void) => () => void;

export function renderSecrets(
  doc: Document,
  secrets: readonly Pick<StoredSecret, 'name' | 'sites'>[],
  onRemove: (name: string) => void,
): void {
  renderRemovableList(
    doc,
    { list: 'secret-list', empty: 'secrets-empty' },
    secrets.map((s) => ({
      text: secretPlaceholder(s.name),
      detail: `on ${s.sites.join(', ')}`,
      key: s.name,
    })),
    onRemove,
  );
}

/** The form's secret, or what is wrong with it. */
function readForm(doc: Document): StoredSecret | string {
  const name = byId<HTMLInputElement>(doc, 'secret-name').value.trim();
  const value = byId<HTMLInputElement>(doc, 'secret-value').value;
  const typed = parseSites(byId<HTMLInputElement>(doc, 'secret-sites').value);
  if (!SecretName.safeParse(name).success)
    return 'A name is lower-case letters, digits and "_", starting with a letter (clinic_password).';
  if ('error' in typed) return typed.error;
  if (typed.sites.length === 0) return 'Add the site (or sites) the secret may be typed on.';
  return { name, value, sites: typed.sites };
}

export async function mountSecrets(
  doc: Document,
  storage: KeyValueStore,
  watch?: Watch,
): Promise<void> {
  const say = sayer(doc, 'secret-message');
  const show = (secrets: readonly StoredSecret[]) =>
    renderSecrets(
      doc,
      secrets,
      (name) =>
        void removeSecret(storage, name).then((left) => {
          show(left);
          say(`${secretPlaceholder(name)} was removed.`);
        }),
    );
  show(await loadSecrets(storage));
  watch?.(SECRETS_KEY, () => void loadSecrets(storage).then(show));

  byId<HTMLFormElement>(doc, 'secret-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const secret = readForm(doc);
    if (typeof secret === 'string') {
      say(secret, true);
      return;
    }
    void saveSecret(storage, secret).then(
      (secrets) => {
        show(secrets);
        // The value leaves the form at once: it is in storage, and shown nowhere.
        byId<HTMLFormElement>(doc, 'secret-form').reset();
        say(
          `Saved: the agent can type ${secretPlaceholder(secret.name)} on ${secret.sites.join(', ')}.`,
        );
      },
      (error: unknown) => {
        const issue = error instanceof Error ? error.message : String(error);
        say(/at least/.test(issue) ? 'A secret has at least 4 characters.' : issue, true);
      },
    );
  });
}
