import { describe, expect, it } from 'vitest';
import { parseAction } from './action-grammar';
import { actionRisk, actionsRisks, isAllowedEdit } from './risk';

const click = parseAction('click("7")');

describe('high-risk actions', () => {
  it.each([
    ['Pay $120.00', 'payment', 'Pays: “Pay $120.00”'],
    ['Place order', 'purchase', 'Buys: “Place order”'],
    ['Buy now', 'purchase', 'Buys: “Buy now”'],
    ['Delete all records', 'delete', 'Deletes: “Delete all records”'],
    ['Send to all contacts', 'message', 'Sends: “Send to all contacts”'],
  ])('a click on %s is %s', (name, kind, reason) => {
    expect(actionRisk(click, { role: 'btn', name })).toEqual({ kind, reason });
  });

  it('ordinary clicks, field edits and unknown targets are not', () => {
    for (const name of ['Save', 'Submit request', 'Publish', 'Payments', 'Add to cart', 'Patients'])
      expect(actionRisk(click, { role: 'btn', name }), name).toBeNull();
    expect(actionRisk(click, { role: 'inp', name: 'Delete reason' })).toBeNull();
    expect(
      actionRisk(parseAction('setValue("7", "delete")'), { role: 'btn', name: 'Send' }),
    ).toBeNull();
    expect(actionRisk(click, undefined)).toBeNull();
  });

  it("the form a button submits, as the page shows it, wins over the button's name", () => {
    expect(actionRisk(click, { role: 'btn', name: 'Submit', form: 'payment' })).toEqual({
      kind: 'payment',
      reason: 'Submits a payment form: “Submit”',
    });
  });

  it("the user's marks pause on any element named with them", () => {
    expect(actionRisk(click, { role: 'btn', name: 'Save patient' }, ['save'])).toEqual({
      kind: 'user_marked',
      reason: 'You asked to approve “Save patient” first',
    });
    expect(actionRisk(click, { role: 'btn', name: 'Save' }, ['  '])).toBeNull();
  });

  it('lists the risky actions of a chain by index', () => {
    const chain = [parseAction('setValue("1", "Hi")'), parseAction('click("2")')];
    const risks = actionsRisks(chain, (a) =>
      'id' in a.args && a.args.id === '2' ? { role: 'btn', name: 'Send' } : { role: 'txt' },
    );
    expect(risks).toEqual([{ index: 1, kind: 'message', reason: 'Sends: “Send”' }]);
  });

  it('an edit may change typed text or a chosen option, nothing else', () => {
    const typed = parseAction('setValue("4", "Hello")');
    expect(isAllowedEdit(typed, parseAction('setValue("4", "Hi there")'))).toBe(true);
    expect(isAllowedEdit(typed, parseAction('setValue("5", "Hello")'))).toBe(false);
    expect(isAllowedEdit(typed, parseAction('click("4")'))).toBe(false);
    expect(isAllowedEdit(click, parseAction('click("7")'))).toBe(true);
    expect(isAllowedEdit(click, parseAction('click("8")'))).toBe(false);
    expect(isAllowedEdit(parseAction('select("3", "A")'), parseAction('select("3", "B")'))).toBe(
      true,
    );
  });
});
