// Key names for press(): KeyboardEvent.key values with "+" for chords ("Control+a"), plus a
// few aliases models write. Pure, unit-tested.

export interface KeyChord {
  key: string;
  code: string;
  keyCode: number;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  /** Printable: typing it inserts `key` (single character, no Ctrl/Alt/Meta). */
  printable: boolean;
}

const ALIASES: Record<string, string> = {
  esc: 'Escape',
  escape: 'Escape',
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  space: ' ',
  spacebar: ' ',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  arrowright: 'ArrowRight',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  home: 'Home',
  end: 'End',
};

const MODIFIERS: Record<string, 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey'> = {
  control: 'ctrlKey',
  ctrl: 'ctrlKey',
  shift: 'shiftKey',
  alt: 'altKey',
  option: 'altKey',
  meta: 'metaKey',
  cmd: 'metaKey',
  command: 'metaKey',
};

const KEY_CODES: Record<string, [string, number]> = {
  Enter: ['Enter', 13],
  Tab: ['Tab', 9],
  Escape: ['Escape', 27],
  ' ': ['Space', 32],
  Backspace: ['Backspace', 8],
  Delete: ['Delete', 46],
  ArrowUp: ['ArrowUp', 38],
  ArrowDown: ['ArrowDown', 40],
  ArrowLeft: ['ArrowLeft', 37],
  ArrowRight: ['ArrowRight', 39],
  PageUp: ['PageUp', 33],
  PageDown: ['PageDown', 34],
  Home: ['Home', 36],
  End: ['End', 35],
};

function codeOf(key: string): [string, number] {
  const known = KEY_CODES[key];
  if (known) return known;
  if (/^[a-z]$/i.test(key)) return [`Key${key.toUpperCase()}`, key.toUpperCase().charCodeAt(0)];
  if (/^[0-9]$/.test(key)) return [`Digit${key}`, key.charCodeAt(0)];
  const fn = /^F(\d{1,2})$/.exec(key);
  if (fn) return [key, 111 + Number(fn[1])];
  return ['', 0];
}

/** Parses "Shift+Tab", "Control+a", "Enter", "esc"; throws on an empty key. */
export function parseKeyChord(text: string): KeyChord {
  // "+" alone, or a chord ending in "+" ("Control++"), means the plus key.
  const parts =
    text === '+'
      ? ['+']
      : text.endsWith('++')
        ? [...text.slice(0, -2).split('+'), '+']
        : text.split('+');
  const chord: KeyChord = {
    key: '',
    code: '',
    keyCode: 0,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    metaKey: false,
    printable: false,
  };
  parts.forEach((raw, index) => {
    const part = index === parts.length - 1 ? raw : raw.trim();
    const modifier = MODIFIERS[part.toLowerCase()];
    if (modifier && index < parts.length - 1) {
      chord[modifier] = true;
      return;
    }
    chord.key = part.length === 1 ? part : (ALIASES[part.trim().toLowerCase()] ?? part.trim());
  });
  if (!chord.key) throw new Error(`no key in ${JSON.stringify(text)}`);
  if (chord.shiftKey && chord.key.length === 1) chord.key = chord.key.toUpperCase();
  const [code, keyCode] = codeOf(chord.key);
  chord.code = code;
  chord.keyCode = keyCode;
  chord.printable = chord.key.length === 1 && !chord.ctrlKey && !chord.altKey && !chord.metaKey;
  return chord;
}
