import { describe, expect, it } from 'vitest';
import { parseKeyChord } from './keys';

describe('parseKeyChord', () => {
  it('parses named keys, aliases and chords', () => {
    expect(parseKeyChord('Enter')).toMatchObject({
      key: 'Enter',
      code: 'Enter',
      keyCode: 13,
      printable: false,
    });
    expect(parseKeyChord('esc')).toMatchObject({ key: 'Escape', keyCode: 27 });
    expect(parseKeyChord('Shift+Tab')).toMatchObject({ key: 'Tab', shiftKey: true });
    expect(parseKeyChord('Control+a')).toMatchObject({
      key: 'a',
      code: 'KeyA',
      ctrlKey: true,
      printable: false,
    });
    expect(parseKeyChord('a')).toMatchObject({
      key: 'a',
      code: 'KeyA',
      keyCode: 65,
      printable: true,
    });
    expect(parseKeyChord('Shift+a')).toMatchObject({ key: 'A', printable: true });
    expect(parseKeyChord('space')).toMatchObject({ key: ' ', code: 'Space' });
    expect(parseKeyChord('+')).toMatchObject({ key: '+', printable: true });
    expect(parseKeyChord('Control++')).toMatchObject({ key: '+', ctrlKey: true });
    expect(parseKeyChord('F5')).toMatchObject({ key: 'F5', keyCode: 116 });
  });
});
