import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { checkChainSafety } from './chain-safety';
import { parseCommand } from './command-parser';
import { classifyComplexity } from './complexity';
import { templateOutcome } from './outcome-templates';
import { nameScore, resolveIntent } from './target-resolver';

const tree: SemanticNodeV3[] = [
  { i: '1', r: 'link', n: 'Home' },
  { i: '2', r: 'btn', n: 'Patients', s: 'collapsed' },
  { i: '3', r: 'link', n: 'Logout' },
  { i: '10', r: 'inp', n: 'First name', v: '' },
  { i: '11', r: 'inp', n: 'Last name', v: '' },
  { i: '12', r: 'sel', n: 'Sex', v: '' },
  { i: '13', r: 'chk', n: 'Active' },
  { i: '14', r: 'inp', n: 'Email' },
  { i: '15', r: 'txt', n: 'Notes' },
  { i: '16', r: 'btn', n: 'Save' },
  { i: '17', r: 'btn', n: 'Delete', occ: true },
  { i: '18', r: 'btn', n: 'Archive', s: 'disabled' },
];

describe('classifyComplexity', () => {
  it.each([
    ['click Logout', 'SIMPLE'],
    ['Click the Submit button', 'SIMPLE'],
    ['type Jas into First name', 'SIMPLE'],
    ['press Enter', 'SIMPLE'],
    ['Add a new patient with name Jas', 'COMPLEX'],
    ['fill the form with my details', 'COMPLEX'],
    ['click Patients and then click New/Search', 'COMPLEX'],
    ['open the patients menu and more', 'COMPLEX'],
    ['click Terms and Conditions', 'SIMPLE'],
    ['what is the price of the cheapest item', 'COMPLEX'],
    // A question, or a second part, is never one bare command.
    ['Open my messages and tell me how many are unread', 'COMPLEX'],
    ['click Messages. How many are unread?', 'COMPLEX'],
    ['click Inbox, then click Archive', 'COMPLEX'],
    ['click Save and press Enter', 'COMPLEX'],
    ["click 'What's new'", 'SIMPLE'],
    ['type Jas and Patel into Full name', 'SIMPLE'],
    ['Open https://survey.example/form and write "Thanks" in the comments', 'COMPLEX'],
    ['click Save and Continue', 'SIMPLE'],
  ])('%s → %s', (query, expected) => {
    expect(classifyComplexity(query).complexity).toBe(expected);
  });
});

describe('parseCommand', () => {
  it('parses each command form', () => {
    expect(parseCommand('click Logout')).toEqual({ kind: 'click', target: 'Logout' });
    expect(parseCommand("click on the 'New/Search' link")).toEqual({
      kind: 'click',
      target: 'New/Search',
    });
    expect(parseCommand('type Jas into First name')).toEqual({
      kind: 'type',
      text: 'Jas',
      target: 'First name',
    });
    expect(parseCommand('set Last name to "Smith"')).toEqual({
      kind: 'type',
      target: 'Last name',
      text: 'Smith',
    });
    expect(parseCommand('select Female from Sex')).toEqual({
      kind: 'select',
      option: 'Female',
      target: 'Sex',
    });
    expect(parseCommand('press Enter')).toEqual({ kind: 'press', key: 'Enter' });
    expect(parseCommand('press Save')).toEqual({ kind: 'click', target: 'Save' });
    expect(parseCommand('scroll down')).toEqual({ kind: 'scroll', direction: 'down' });
    expect(parseCommand('go back')).toEqual({ kind: 'goBack' });
    expect(parseCommand('uncheck Active')).toEqual({
      kind: 'check',
      checked: false,
      target: 'Active',
    });
    expect(parseCommand('Add a new patient')).toBeNull();
  });
});

describe('resolveIntent', () => {
  it('resolves named targets to grammar actions on tree ids', () => {
    const click = resolveIntent({ kind: 'click', target: 'Logout' }, tree);
    expect(click.kind === 'resolved' && click.actionString).toBe('click("3")');
    const type = resolveIntent({ kind: 'type', target: 'first name', text: 'Jas' }, tree);
    expect(type.kind === 'resolved' && type.actionString).toBe('setValue("10", "Jas")');
    const select = resolveIntent({ kind: 'select', target: 'Sex', option: 'Female' }, tree);
    expect(select.kind === 'resolved' && select.actionString).toBe('select("12", "Female")');
  });

  it('never picks occluded or disabled elements, and says why', () => {
    const occluded = resolveIntent({ kind: 'click', target: 'Delete' }, tree);
    expect(occluded.kind).toBe('not_found');
    expect(occluded.kind === 'not_found' && occluded.reason).toMatch(/covered/);
    expect(resolveIntent({ kind: 'click', target: 'Archive' }, tree).kind).toBe('not_found');
  });

  it('refuses to guess between equally good candidates', () => {
    const twoSaves: SemanticNodeV3[] = [...tree, { i: '20', r: 'btn', n: 'Save' }];
    const r = resolveIntent({ kind: 'click', target: 'Save' }, twoSaves);
    expect(r.kind).toBe('ambiguous');
  });

  it('scores names: exact > prefix > contains > overlap', () => {
    expect(nameScore('Save', 'Save')).toBe(1);
    expect(nameScore('First', 'First name')).toBe(0.8);
    expect(nameScore('name', 'First name')).toBe(0.7);
    expect(nameScore('Save', 'Cancel')).toBe(0);
  });
});

describe('checkChainSafety', () => {
  const fields = [
    'setValue("10", "Jas")',
    'setValue("11", "Smith")',
    'select("12", "Female")',
    'click("13")',
    'setValue("14", "j@x.io")',
  ];
  it('accepts a contiguous form-field chain', () => {
    expect(checkChainSafety(fields, tree)).toEqual({ safe: true });
  });
  it("accepts the form's own button as the last action: the form is one round trip", () => {
    expect(checkChainSafety([...fields, 'setValue("15", "n")', 'click("16")'], tree)).toEqual({
      safe: true,
    });
  });
  it.each([
    [['setValue("10", "a")', 'click("16")', 'setValue("11", "b")'], /the form's button last/],
    [['setValue("10", "a")', 'click("2")'], /not the button that ends these fields/],
    [['setValue("10", "a")', 'click("18")'], /disabled/],
    [['setValue("10", "a")', 'click("17")'], /occluded/],
    [['click("16")', 'setValue("10", "b")'], /only form fields/],
    [['setValue("10", "a")', 'click("1")'], /on a link/],
    [['setValue("10", "a")', 'finish()'], /never chained/],
    [['setValue("10", "a")', 'navigate("https://x.io")'], /not low-risk/],
    [['setValue("10", "a")', 'wait(1)'], /depends on a page change/],
    [['setValue("10", "a")', 'setValue("99", "b")'], /not on the page/],
    [['setValue("10", "a")', 'setValue("10", "b")'], /once/],
    [['click("2")', 'setValue("10", "b")'], /only form fields/],
  ])('refuses %j', (actions, reason) => {
    const verdict = checkChainSafety(actions, tree);
    expect(verdict.safe).toBe(false);
    expect(verdict.safe === false && verdict.reason).toMatch(reason);
  });
  it('a button after a link or another button does not end the fields before them', () => {
    const page: SemanticNodeV3[] = [
      { i: 'a', r: 'inp', n: 'Search' },
      { i: 'help', r: 'link', n: 'Help' },
      { i: 'go', r: 'btn', n: 'Go' },
    ];
    expect(checkChainSafety(['setValue("a", "x")', 'click("go")'], page)).toEqual({
      safe: false,
      reason: '"Go" is not the button that ends these fields',
    });
  });
  it('never ends a chain with a button that deletes, cancels or spends', () => {
    const form: SemanticNodeV3[] = [
      { i: 'a', r: 'inp', n: 'Amount' },
      { i: 'pay', r: 'btn', n: 'Pay now' },
      { i: 'b', r: 'inp', n: 'Reason' },
      { i: 'del', r: 'btn', n: 'Delete account' },
    ];
    expect(checkChainSafety(['setValue("a", "5")', 'click("pay")'], form)).toEqual({
      safe: false,
      reason: '"Pay now" is not low-risk: it is never chained',
    });
    expect(checkChainSafety(['setValue("b", "x")', 'click("del")'], form).safe).toBe(false);
  });
  it('refuses fields separated by a button (not one form group)', () => {
    const split: SemanticNodeV3[] = [
      { i: 'a', r: 'inp', n: 'A' },
      { i: 'b', r: 'btn', n: 'Go' },
      { i: 'c', r: 'inp', n: 'C' },
    ];
    expect(checkChainSafety(['setValue("a", "1")', 'setValue("c", "2")'], split).safe).toBe(false);
  });
});

describe('templateOutcome', () => {
  it('uses fixed templates for dropdowns and navigation', () => {
    expect(templateOutcome({ name: 'click', args: { id: '2' } }, tree[1])).toMatchObject({
      urlShouldChange: false,
      source: 'template',
    });
    expect(
      templateOutcome({ name: 'navigate', args: { url: 'https://a.io' } }, undefined),
    ).toMatchObject({ urlShouldChange: true });
    expect(templateOutcome({ name: 'click', args: { id: '16' } }, tree[9])).toBeNull();
  });
});
