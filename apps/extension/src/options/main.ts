// Options: the server URL and API key, validated before they are saved; "Test connection"
// asks the server who the key belongs to. Below, the sites Tandem may learn from, the secrets
// the agent types without knowing them, and the words that make it ask first.
import { chromeStorage, watchStorage } from '../shared/chrome-glue';
import { createApiClient } from '../shared/api-client';
import { DEFAULT_SERVER_URL, loadSettings, Settings, SETTINGS_KEY } from '../shared/settings';
import { mountAskBefore } from './ask-before-section';
import { mountLearnSites } from './learn-sites';
import { mountSecrets } from './secrets-section';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function say(text: string, error = false): void {
  const el = $<HTMLElement>('message');
  el.textContent = text;
  el.className = error ? 'error' : '';
}

function read(): Settings | null {
  const parsed = Settings.safeParse({
    serverUrl: $<HTMLInputElement>('server-url').value.trim(),
    apiKey: $<HTMLInputElement>('api-key').value.trim(),
  });
  if (!parsed.success) {
    say(parsed.error.issues.map((i) => i.message).join('; '), true);
    return null;
  }
  return { ...parsed.data, serverUrl: parsed.data.serverUrl.replace(/\/+$/, '') };
}

async function main(): Promise<void> {
  const current = await loadSettings(chromeStorage);
  $<HTMLInputElement>('server-url').value = current?.serverUrl ?? DEFAULT_SERVER_URL;
  $<HTMLInputElement>('api-key').value = current?.apiKey ?? '';
  $<HTMLFormElement>('settings').addEventListener('submit', (event) => {
    event.preventDefault();
    const settings = read();
    if (settings) void chromeStorage.set({ [SETTINGS_KEY]: settings }).then(() => say('Saved.'));
  });
  $<HTMLButtonElement>('test').addEventListener('click', () => {
    const settings = read();
    if (!settings) return;
    say('Testing…');
    createApiClient(settings)
      .whoami()
      .then(
        (me) =>
          say(
            `Connected to tenant "${me.tenantName}" as ${me.userId} (${me.role}); store: ${me.store}.`,
          ),
        (error: unknown) => say(error instanceof Error ? error.message : String(error), true),
      );
  });
}

void main();
void mountLearnSites(document, chromeStorage, watchStorage);
void mountSecrets(document, chromeStorage, watchStorage);
void mountAskBefore(document, chromeStorage, watchStorage);
