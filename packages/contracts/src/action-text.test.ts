import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, parseAction, type ParsedAction } from './action-grammar';
import {
  describeAction,
  describeActions,
  describePageCapture,
  describePageRead,
} from './action-text';

const names = { '3': 'Patients', '9': 'First name', '12': 'Country', '20': '  Save\n  draft ' };
const say = (text: string) => describeAction(parseAction(text), names);

describe('describeAction', () => {
  it('says every grammar action in plain language, as done', () => {
    const examples: Record<ParsedAction['name'], [string, string]> = {
      click: ['click("3")', 'Clicked “Patients”'],
      clickAt: ['clickAt(412.4, 300)', 'Clicked the point (412, 300) of the page'],
      setValue: ['setValue("9", "Jas")', 'Typed “Jas” into First name'],
      select: ['select("12", "Canada")', 'Chose “Canada” in Country'],
      hover: ['hover("3")', 'Pointed at “Patients”'],
      press: ['press("Enter")', 'Pressed Enter'],
      scroll: ['scroll("down")', 'Scrolled down'],
      navigate: ['navigate("https://emr.example/patients")', 'Opened https://emr.example/patients'],
      goBack: ['goBack()', 'Went back to the previous page'],
      wait: ['wait(2)', 'Waited 2 s for the page'],
      finish: ['finish("Saved")', 'Finished'],
      fail: ['fail("no form")', 'Gave up'],
      googleSearch: [
        'googleSearch("ICD-10 code for flu")',
        'Searched the web for “ICD-10 code for flu”',
      ],
    };
    // Every action of the grammar has an example: a new action fails here until it has words.
    expect(Object.keys(examples).sort()).toEqual([...ACTION_NAMES].sort());
    for (const [text, words] of Object.values(examples)) expect(say(text)).toBe(words);
  });

  it('covers the variants: clearing, scrolling to an element or an edge, unnamed targets', () => {
    expect(say('setValue("9", "")')).toBe('Cleared First name');
    expect(say('scroll("3")')).toBe('Scrolled to “Patients”');
    expect(say('scroll("top")')).toBe('Scrolled to the top of the page');
    expect(say('scroll("bottom")')).toBe('Scrolled to the bottom of the page');
    expect(say('click("77")')).toBe('Clicked element 77');
    expect(say('setValue("78", "x")')).toBe('Typed “x” into field 78');
    // Names are folded onto one line; long text is cut.
    expect(say('click("20")')).toBe('Clicked “Save draft”');
    const long = 'a'.repeat(200);
    expect(say(`setValue("9", "${long}")`)).toBe(`Typed “${'a'.repeat(79)}…” into First name`);
  });
});

describe('describeActions', () => {
  it('joins a chain into one line in order', () => {
    const chain = ['setValue("9", "Jas")', 'select("12", "Canada")'].map((a) => parseAction(a));
    expect(describeActions(chain, names)).toBe(
      'Typed “Jas” into First name, then chose “Canada” in Country',
    );
    expect(describeActions([parseAction('click("3")')], names)).toBe('Clicked “Patients”');
    expect(describeActions([], names)).toBe('');
  });
});

describe('describePageCapture', () => {
  it('says which capture the server asked for', () => {
    expect(describePageCapture('full')).toBe('Read the whole page');
    expect(describePageCapture('hybrid')).toBe('Looked at a screenshot of the page');
  });
});

describe('describePageRead', () => {
  it('says which read the agent made', () => {
    expect(describePageRead({ mode: 'outline' })).toBe('Read the page outline');
    expect(describePageRead({ mode: 'content', grep: 'salary' })).toBe(
      'Read the page content about “salary”',
    );
    expect(describePageRead({ mode: 'interactive' })).toBe('Read the page’s controls');
  });
});
