import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTION_GRAMMAR,
  ACTION_NAMES,
  ActionParseError,
  actionSignature,
  actionTargetId,
  formatAction,
  isTerminalAction,
  ParsedAction,
  parseAction,
  safeParseAction,
  SCROLL_DIRECTIONS,
} from './action-grammar';

/** The message and 1-based column of the error `text` fails with. */
function failure(text: string): { message: string; column: number | undefined } {
  const result = safeParseAction(text);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to fail`);
  expect(result.error).toBeInstanceOf(ActionParseError);
  expect(result.error.input).toBe(text);
  return { message: result.error.message, column: result.error.column };
}

describe('parseAction / formatAction: every action', () => {
  const cases: [string, ParsedAction, string][] = [
    ['click("14")', { name: 'click', args: { id: '14' } }, 'click("14")'],
    ['clickAt(412, 300)', { name: 'clickAt', args: { x: 412, y: 300 } }, 'clickAt(412, 300)'],
    ['clickAt(0, 12.5)', { name: 'clickAt', args: { x: 0, y: 12.5 } }, 'clickAt(0, 12.5)'],
    [
      'setValue("14", "Jas")',
      { name: 'setValue', args: { id: '14', text: 'Jas' } },
      'setValue("14", "Jas")',
    ],
    ['setValue(3, "")', { name: 'setValue', args: { id: '3', text: '' } }, 'setValue("3", "")'],
    [
      'select("21", "Female")',
      { name: 'select', args: { id: '21', option: 'Female' } },
      'select("21", "Female")',
    ],
    ['hover(9)', { name: 'hover', args: { id: '9' } }, 'hover("9")'],
    ['press("Enter")', { name: 'press', args: { key: 'Enter' } }, 'press("Enter")'],
    ['scroll("down")', { name: 'scroll', args: { direction: 'down' } }, 'scroll("down")'],
    ['scroll(12)', { name: 'scroll', args: { id: '12' } }, 'scroll("12")'],
    [
      'navigate("https://example.com/a?b=1#c")',
      { name: 'navigate', args: { url: 'https://example.com/a?b=1#c' } },
      'navigate("https://example.com/a?b=1#c")',
    ],
    ['goBack()', { name: 'goBack', args: {} }, 'goBack()'],
    ['wait(1.5)', { name: 'wait', args: { seconds: 1.5 } }, 'wait(1.5)'],
    ['wait(60)', { name: 'wait', args: { seconds: 60 } }, 'wait(60)'],
    ['finish()', { name: 'finish', args: {} }, 'finish()'],
    [
      'finish("Added Jas.")',
      { name: 'finish', args: { message: 'Added Jas.' } },
      'finish("Added Jas.")',
    ],
    [
      'fail("No such patient")',
      { name: 'fail', args: { reason: 'No such patient' } },
      'fail("No such patient")',
    ],
    [
      'googleSearch("ICD-10 migraine")',
      { name: 'googleSearch', args: { query: 'ICD-10 migraine' } },
      'googleSearch("ICD-10 migraine")',
    ],
  ];

  it.each(cases)('%s', (text, parsed, canonical) => {
    expect(parseAction(text)).toStrictEqual(parsed);
    expect(formatAction(parsed)).toBe(canonical);
  });

  it('covers every action name', () => {
    const covered = new Set(cases.map(([, parsed]) => parsed.name));
    expect([...covered].sort()).toStrictEqual([...ACTION_NAMES].sort());
  });

  it('parses every example of the grammar table', () => {
    for (const name of ACTION_NAMES) {
      expect(parseAction(ACTION_GRAMMAR[name].example).name).toBe(name);
    }
  });
});

describe('parseAction: what LLMs write', () => {
  it('accepts bare, double- and single-quoted element ids as the same string id', () => {
    const expected = { name: 'click', args: { id: '14' } };
    for (const text of ['click(14)', 'click("14")', "click('14')", 'click(" 14 ")']) {
      expect(parseAction(text)).toStrictEqual(expected);
    }
  });

  it('allows whitespace around every token', () => {
    expect(parseAction('  setValue ( 14 ,\n "Jas" )\t')).toStrictEqual({
      name: 'setValue',
      args: { id: '14', text: 'Jas' },
    });
  });

  it('matches action names and scroll directions case-insensitively', () => {
    expect(parseAction('Click(3)')).toStrictEqual({ name: 'click', args: { id: '3' } });
    expect(parseAction('SETVALUE(3, "x")').name).toBe('setValue');
    expect(parseAction('scroll(Down)')).toStrictEqual({
      name: 'scroll',
      args: { direction: 'down' },
    });
  });

  it('decodes every escape in single- and double-quoted text', () => {
    expect(
      parseAction(String.raw`setValue(1, "a\"b\'c\\d\/e\nf\tg\rh\bi\fj\u00e9")`),
    ).toStrictEqual({
      name: 'setValue',
      args: { id: '1', text: 'a"b\'c\\d/e\nf\tg\rh\bi\fj\u00e9' },
    });
    expect(parseAction(String.raw`setValue(1, 'It\'s "fine"')`)).toStrictEqual({
      name: 'setValue',
      args: { id: '1', text: 'It\'s "fine"' },
    });
  });

  it('accepts ids with the whole id charset and a quoted number for wait', () => {
    expect(parseAction('click(frame-1:node_2.a)')).toStrictEqual({
      name: 'click',
      args: { id: 'frame-1:node_2.a' },
    });
    expect(parseAction('wait("2")')).toStrictEqual({ name: 'wait', args: { seconds: 2 } });
    expect(parseAction('wait(.5)')).toStrictEqual({ name: 'wait', args: { seconds: 0.5 } });
  });
});

describe('parseAction: error messages', () => {
  it('names the unknown action, lists the known ones and suggests the closest', () => {
    expect(failure('clik(14)')).toStrictEqual({
      message:
        'unknown action "clik" — expected one of click, clickAt, setValue, select, hover, press, scroll, navigate, goBack, wait, finish, fail, googleSearch (did you mean click?)',
      column: 1,
    });
    expect(failure('  explode(1)').message).toMatch(
      /^unknown action "explode" — expected one of click, /,
    );
    expect(failure('  explode(1)').message).not.toContain('did you mean');
    expect(failure('  explode(1)').column).toBe(3);
  });

  it('reports argument counts with the parameter labels', () => {
    expect(failure('click(14, 15)')).toStrictEqual({
      message: 'click expects 1 argument (element id), got 2',
      column: 11,
    });
    expect(failure('setValue(14)')).toStrictEqual({
      message: 'setValue expects 2 arguments (element id, text), got 1',
      column: 12,
    });
    expect(failure('goBack(1)').message).toBe('goBack expects no arguments, got 1');
    expect(failure('finish("a", "b")').message).toBe(
      'finish expects at most 1 argument (message), got 2',
    );
    expect(failure('fail()').message).toBe('fail expects 1 argument (reason), got 0');
  });

  it('points at unterminated strings and bad escapes', () => {
    expect(failure('setValue(1, "Jas)')).toStrictEqual({
      message: 'unterminated string starting at column 13',
      column: 13,
    });
    expect(failure("click('14)").message).toBe('unterminated string starting at column 7');
    expect(failure('setValue(1, "a\\')).toStrictEqual({
      message: 'unterminated string starting at column 13',
      column: 13,
    });
    expect(failure('setValue(1, "a\\qb")')).toStrictEqual({
      message:
        'invalid escape "\\q" at column 15 — allowed: \\" \\\' \\\\ \\/ \\n \\t \\r \\b \\f \\uXXXX',
      column: 15,
    });
    expect(failure('setValue(1, "\\u12G4")').message).toBe(
      'invalid unicode escape at column 14 — expected \\u followed by 4 hex digits',
    );
  });

  it('rejects trailing garbage, missing parentheses and empty input', () => {
    expect(failure('click(14) and more')).toStrictEqual({
      message: 'unexpected "and more" after the closing ")" at column 11',
      column: 11,
    });
    expect(failure('click(14);').message).toBe('unexpected ";" after the closing ")" at column 10');
    expect(failure('click')).toStrictEqual({
      message: 'expected "(" after click at column 6, got end of input',
      column: 6,
    });
    expect(failure('click 14').message).toBe('expected "(" after click at column 7, got "1"');
    expect(failure('click(14')).toStrictEqual({
      message: 'expected "," or ")" at column 9, got end of input',
      column: 9,
    });
    expect(failure('click(')).toStrictEqual({
      message: 'expected an argument or ")" at column 7, got end of input',
      column: 7,
    });
    expect(failure('click(14,)').message).toBe('expected an argument at column 10, got ")"');
    expect(failure('   ')).toStrictEqual({
      message: 'empty action — expected e.g. click("14")',
      column: undefined,
    });
    expect(failure('14').message).toBe('expected an action name at column 1, got "1"');
  });

  it('rejects invalid element ids and unquoted text', () => {
    expect(failure('click("a b")')).toStrictEqual({
      message:
        'invalid element id "a b" in click argument 1 (element id) at column 7 — ids match /^[A-Za-z0-9_:.-]+$/',
      column: 7,
    });
    expect(failure('click("")').message).toBe('click argument 1 (element id) at column 7 is empty');
    expect(failure(`click(${'9'.repeat(65)})`).message).toBe(
      'click argument 1 (element id) at column 7 is longer than 64 characters',
    );
    expect(failure('setValue(14, Jas)')).toStrictEqual({
      message: 'setValue argument 2 (text) at column 14 must be a quoted string, got Jas',
      column: 14,
    });
    expect(failure('select(14, "")').message).toBe(
      'select argument 2 (option) at column 12 must not be empty',
    );
  });

  it('checks clickAt coordinates: two non-negative numbers', () => {
    expect(parseAction('clickAt("412", 300)')).toStrictEqual({
      name: 'clickAt',
      args: { x: 412, y: 300 },
    });
    expect(parseAction('clickAt(-0, 1)')).toStrictEqual({ name: 'clickAt', args: { x: 0, y: 1 } });
    expect(failure('clickAt(-1, 5)')).toStrictEqual({
      message: 'clickAt x must be >= 0 and <= 100,000 (CSS pixels), got -1 at column 9',
      column: 9,
    });
    expect(failure('clickAt(5, 1e6)').message).toBe(
      'clickAt y must be >= 0 and <= 100,000 (CSS pixels), got 1e6 at column 12',
    );
    expect(failure('clickAt(left, 5)').message).toBe(
      'clickAt argument 1 (x) at column 9 must be a number, got left',
    );
    expect(failure('clickAt(5)').message).toBe('clickAt expects 2 arguments (x, y), got 1');
    expect(failure('clickAt("14")').message).toBe('clickAt expects 2 arguments (x, y), got 1');
  });

  it('checks wait ranges and navigate URLs', () => {
    expect(failure('wait(0)').message).toBe(
      'wait seconds must be > 0 and <= 60, got 0 at column 6',
    );
    expect(failure('wait(60.5)').message).toBe(
      'wait seconds must be > 0 and <= 60, got 60.5 at column 6',
    );
    expect(failure('wait(-1)').message).toBe(
      'wait seconds must be > 0 and <= 60, got -1 at column 6',
    );
    expect(failure('wait(soon)').message).toBe(
      'wait argument 1 (seconds) at column 6 must be a number, got soon',
    );
    expect(failure('navigate("javascript:alert(1)")').message).toBe(
      'navigate expects an absolute http(s) URL at column 10, got "javascript:alert(1)"',
    );
    expect(failure('navigate("example.com")').message).toBe(
      'navigate expects an absolute http(s) URL at column 10, got "example.com"',
    );
  });

  it('rejects runaway input before scanning it', () => {
    expect(failure(`finish("${'x'.repeat(60_000)}")`).message).toBe(
      'action is too long (60,010 characters, at most 50,000)',
    );
  });

  it('throws ActionParseError from parseAction', () => {
    expect(() => parseAction('clik(1)')).toThrow(ActionParseError);
    expect(() => parseAction('clik(1)')).toThrow(/unknown action "clik"/);
  });
});

describe('formatAction', () => {
  it('emits double quotes with JSON escaping', () => {
    expect(formatAction({ name: 'setValue', args: { id: '1', text: 'say "hi"\n\\ it\'s' } })).toBe(
      'setValue("1", "say \\"hi\\"\\n\\\\ it\'s")',
    );
  });

  it('refuses objects that are not valid actions, so its output always parses', () => {
    expect(() => formatAction({ name: 'click', args: { id: 'a b' } })).toThrow(
      /formatAction: not a valid action/,
    );
    expect(() => formatAction({ name: 'wait', args: { seconds: 0 } })).toThrow(TypeError);
    expect(() => formatAction({ name: 'scroll', args: { id: 'up' } })).toThrow(
      /cannot be a scroll direction/,
    );
  });
});

describe('helpers', () => {
  it('actionTargetId returns the targeted element only', () => {
    expect(actionTargetId(parseAction('click(1)'))).toBe('1');
    expect(actionTargetId(parseAction('setValue(2, "x")'))).toBe('2');
    expect(actionTargetId(parseAction('select(3, "x")'))).toBe('3');
    expect(actionTargetId(parseAction('hover(4)'))).toBe('4');
    expect(actionTargetId(parseAction('scroll(5)'))).toBe('5');
    expect(actionTargetId(parseAction('scroll("up")'))).toBeUndefined();
    expect(actionTargetId(parseAction('press("Tab")'))).toBeUndefined();
    // A point, not an element: nothing in the tree to check it against.
    expect(actionTargetId(parseAction('clickAt(10, 20)'))).toBeUndefined();
    expect(actionTargetId(parseAction('finish()'))).toBeUndefined();
  });

  it('isTerminalAction is true for finish and fail only', () => {
    const terminal = ACTION_NAMES.filter((name) => isTerminalAction({ name }));
    expect(terminal).toStrictEqual(['finish', 'fail']);
  });

  it('actionSignature renders placeholders and optional parameters', () => {
    expect(actionSignature('setValue')).toBe('setValue(id, "text")');
    expect(actionSignature('finish')).toBe('finish(["message"])');
    expect(actionSignature('goBack')).toBe('goBack()');
    expect(actionSignature('clickAt')).toBe('clickAt(x, y)');
    expect(actionSignature('scroll')).toBe(
      `scroll(id | ${SCROLL_DIRECTIONS.map((d) => `"${d}"`).join(' | ')})`,
    );
  });
});

// ------------------------------------------------------------------ properties

// fc.record builds null-prototype objects; toStrictEqual would tell them from parser output.
const plain = <T extends object>(value: T): T => ({ ...value });

// Characters that break naive quoting, plus any code point and lone surrogates.
const trickyChar = fc.oneof(
  fc.constantFrom(
    '"',
    "'",
    '\\',
    '\n',
    '\r',
    '\t',
    '\b',
    '\f',
    '\u0000',
    '\u2028',
    '/',
    ')',
    ',',
    ' ',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
);
const text = (minLength = 0) => fc.string({ unit: trickyChar, minLength, maxLength: 40 });
const elementId = fc.stringMatching(/^[A-Za-z0-9_:.-]{1,64}$/);
const scrollId = elementId.filter(
  (id) => !(SCROLL_DIRECTIONS as readonly string[]).includes(id.toLowerCase()),
);

const validAction: fc.Arbitrary<ParsedAction> = fc.oneof(
  elementId.map((id) => ({ name: 'click' as const, args: { id } })),
  fc
    .record({
      x: fc.oneof(
        fc.integer({ min: 0, max: 4_000 }),
        fc.double({ min: 0, max: 100_000, noNaN: true }),
      ),
      y: fc.oneof(
        fc.integer({ min: 0, max: 4_000 }),
        fc.double({ min: 0, max: 100_000, noNaN: true }),
      ),
    })
    .map((args) => ({ name: 'clickAt' as const, args: plain(args) })),
  fc
    .record({ id: elementId, text: text() })
    .map((args) => ({ name: 'setValue' as const, args: plain(args) })),
  fc
    .record({ id: elementId, option: text(1) })
    .map((args) => ({ name: 'select' as const, args: plain(args) })),
  elementId.map((id) => ({ name: 'hover' as const, args: { id } })),
  fc.string({ unit: trickyChar, minLength: 1, maxLength: 20 }).map((key) => ({
    name: 'press' as const,
    args: { key },
  })),
  fc.constantFrom(...SCROLL_DIRECTIONS).map((direction) => ({
    name: 'scroll' as const,
    args: { direction },
  })),
  scrollId.map((id) => ({ name: 'scroll' as const, args: { id } })),
  fc
    .webUrl({ withQueryParameters: true, withFragments: true })
    .map((url) => ({ name: 'navigate' as const, args: { url } })),
  fc.constant({ name: 'goBack' as const, args: {} }),
  fc
    .oneof(
      fc.double({ min: Number.MIN_VALUE, max: 60, noNaN: true }),
      fc.integer({ min: 1, max: 60 }),
    )
    .map((seconds) => ({ name: 'wait' as const, args: { seconds } })),
  fc.record({ message: text() }, { requiredKeys: [] }).map((args) => ({
    name: 'finish' as const,
    args: plain(args),
  })),
  text(1).map((reason) => ({ name: 'fail' as const, args: { reason } })),
  text(1).map((query) => ({ name: 'googleSearch' as const, args: { query } })),
);

describe('properties', () => {
  it('parseAction(formatAction(a)) deep-equals a for every valid action', () => {
    fc.assert(
      fc.property(validAction, (action) => {
        expect(ParsedAction.safeParse(action).success).toBe(true);
        expect(parseAction(formatAction(action))).toStrictEqual(action);
      }),
      { numRuns: 500 },
    );
  });

  it('bare, single- and double-quoted ids parse to the same action', () => {
    fc.assert(
      fc.property(elementId, (id) => {
        const expected = { name: 'hover', args: { id } };
        expect(parseAction(`hover(${id})`)).toStrictEqual(expected);
        expect(parseAction(`hover('${id}')`)).toStrictEqual(expected);
        expect(parseAction(`hover("${id}")`)).toStrictEqual(expected);
      }),
    );
  });

  it('never throws anything but ActionParseError, and what parses re-formats stably', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        ...ACTION_NAMES,
        '(',
        ')',
        ',',
        '"',
        "'",
        '\\',
        ' ',
        '14',
        'x',
        '\\u00',
        '-1',
        '1e3',
      ),
      text(),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const result = safeParseAction(pieces.join(''));
        if (result.ok) {
          const canonical = formatAction(result.action);
          expect(formatAction(parseAction(canonical))).toBe(canonical);
        } else {
          expect(result.error).toBeInstanceOf(ActionParseError);
          expect(result.error.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});
