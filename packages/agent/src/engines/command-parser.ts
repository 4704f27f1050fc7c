// Parses one-action commands ("click Logout", "type Jas into First name", "press Enter") into
// an intent with a target description. It is the shared front half of complexity routing
// (a command that parses is a SIMPLE candidate) and of deterministic resolution.

export type CommandIntent =
  | { kind: 'click'; target: string }
  | { kind: 'hover'; target: string }
  | { kind: 'type'; target: string; text: string }
  | { kind: 'select'; target: string; option: string }
  | { kind: 'check'; target: string; checked: boolean }
  | { kind: 'press'; key: string }
  | { kind: 'scroll'; direction: 'up' | 'down' | 'top' | 'bottom' }
  | { kind: 'goBack' }
  | { kind: 'navigate'; url: string };

const strip = (s: string) =>
  s
    .trim()
    .replace(/^["'“‘`]+|["'”’`]+$/g, '')
    .replace(/[.!]+$/, '')
    .trim();

/** "the Submit button" → "Submit"; quotes kept text wins ("click the 'Save' button"). */
export function cleanTarget(raw: string): string {
  const quoted = /["“'‘`]([^"”'’`]+)["”'’`]/.exec(raw);
  if (quoted?.[1]) return quoted[1].trim();
  return strip(raw)
    .replace(/^(on|at)\s+/i, '')
    .replace(/^(the|a|an)\s+/i, '')
    .replace(
      /\s+(button|link|tab|field|input|box|checkbox|menu item|menu|option|icon|dropdown)$/i,
      '',
    )
    .trim();
}

const KEY_NAMES: Record<string, string> = {
  enter: 'Enter',
  return: 'Enter',
  escape: 'Escape',
  esc: 'Escape',
  tab: 'Tab',
  space: ' ',
  backspace: 'Backspace',
  delete: 'Delete',
  'arrow down': 'ArrowDown',
  'arrow up': 'ArrowUp',
  'arrow left': 'ArrowLeft',
  'arrow right': 'ArrowRight',
  down: 'ArrowDown',
  up: 'ArrowUp',
  pagedown: 'PageDown',
  'page down': 'PageDown',
  pageup: 'PageUp',
  'page up': 'PageUp',
  home: 'Home',
  end: 'End',
};

const PATTERNS: { re: RegExp; build: (m: RegExpExecArray) => CommandIntent | null }[] = [
  {
    re: /^(?:type|enter|input|write|put)\s+(.+?)\s+(?:into|in|on)\s+(?:the\s+)?(.+)$/i,
    build: (m) => ({ kind: 'type', text: strip(m[1] ?? ''), target: cleanTarget(m[2] ?? '') }),
  },
  {
    re: /^(?:fill(?:\s+in|\s+out)?|set)\s+(?:the\s+)?(.+?)\s+(?:with|to|as)\s+(.+)$/i,
    build: (m) => ({ kind: 'type', target: cleanTarget(m[1] ?? ''), text: strip(m[2] ?? '') }),
  },
  {
    re: /^(?:select|choose|pick)\s+(.+?)\s+(?:from|in)\s+(?:the\s+)?(.+)$/i,
    build: (m) => ({ kind: 'select', option: strip(m[1] ?? ''), target: cleanTarget(m[2] ?? '') }),
  },
  {
    re: /^(un)?check\s+(.+)$/i,
    build: (m) => ({ kind: 'check', checked: !m[1], target: cleanTarget(m[2] ?? '') }),
  },
  {
    re: /^(?:press|hit)\s+(?:the\s+)?(.+?)(?:\s+key)?$/i,
    build: (m) => {
      const raw = strip(m[1] ?? '');
      const key = KEY_NAMES[raw.toLowerCase()] ?? (raw.length === 1 ? raw : null);
      return key ? { kind: 'press', key } : null;
    },
  },
  {
    re: /^scroll\s+(?:the\s+page\s+)?(up|down|to\s+(?:the\s+)?top|to\s+(?:the\s+)?bottom)$/i,
    build: (m) => {
      const d = (m[1] ?? '').toLowerCase();
      return {
        kind: 'scroll',
        direction: d.includes('top')
          ? 'top'
          : d.includes('bottom')
            ? 'bottom'
            : d === 'up'
              ? 'up'
              : 'down',
      };
    },
  },
  { re: /^go\s+back$/i, build: () => ({ kind: 'goBack' }) },
  {
    re: /^(?:go\s+to|navigate\s+to|open)\s+(https?:\/\/\S+)$/i,
    build: (m) => ({ kind: 'navigate', url: strip(m[1] ?? '') }),
  },
  {
    re: /^(?:hover(?:\s+over)?|mouse\s+over)\s+(.+)$/i,
    build: (m) => ({ kind: 'hover', target: cleanTarget(m[1] ?? '') }),
  },
  {
    re: /^(?:click|tap|press|hit|open|follow|activate)\s+(.+)$/i,
    build: (m) => ({ kind: 'click', target: cleanTarget(m[1] ?? '') }),
  },
];

// "…and then…", "…; …" or "and" followed by another verb: several actions, not one command.
// ("click Terms and Conditions" stays a command: no verb after the "and".)
const MULTI_STEP =
  /\b(and then|then|after that|afterwards)\b|;|\band\s+(?:also\s+)?(?:click|tap|press|type|enter|fill|select|choose|open|go|navigate|add|create|submit|save|check|more|search|find)\b/i;

/** The intent of a one-action command, or null when the text is not one. */
export function parseCommand(query: string): CommandIntent | null {
  const text = query.trim().replace(/\s+/g, ' ');
  // Multi-step goals are not commands even if they start with a verb.
  if (MULTI_STEP.test(text)) return null;
  for (const { re, build } of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const intent = build(m);
    if (!intent) continue;
    if ('target' in intent && intent.target === '') return null;
    return intent;
  }
  return null;
}
