import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAction, type ParsedAction } from './action-grammar';
import {
  actionRisk,
  actionsRisks,
  focusedIndexBefore,
  hasCurrencyAmount,
  isAllowedEdit,
  normalizeRiskText,
  type RiskTarget,
} from './risk';
import {
  CURRENCY_CODES,
  CURRENCY_SYMBOLS,
  RISK_LANGS,
  RISK_PHRASES,
  SUBMIT_PHRASES,
  type RiskWordKind,
} from './risk-words';

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

const enter = parseAction('press("Enter")');
const btn = (name: string, more: Partial<RiskTarget> = {}): RiskTarget => ({
  role: 'btn',
  name,
  ...more,
});
const kindOf = (name: string, role = 'btn') => actionRisk(click, { role, name })?.kind ?? null;

describe('judged by effect, not by English wording', () => {
  it('an amount on a button is a payment, whatever its verb', () => {
    expect(actionRisk(click, btn('Confirm transfer of 4,800.00 GBP'))).toEqual({
      kind: 'payment',
      reason: 'Pays: “Confirm transfer of 4,800.00 GBP”',
    });
    expect(actionRisk(click, btn('Authorise 4,800.00 GBP'))?.kind).toBe('payment');
    expect(actionRisk(click, { name: '£4,800' })?.kind).toBe('payment');
  });

  it('Enter in the Amount field of a payment chain is judged as submitting its form', () => {
    const chain = [parseAction('setValue("3", "4800")'), enter];
    const risks = actionsRisks(chain, (a) =>
      a.name === 'setValue' ? { role: 'inp', name: 'Amount' } : undefined,
    );
    expect(risks).toEqual([
      {
        index: 1,
        kind: 'payment',
        reason: 'Submits a form about a payment by pressing Enter in “Amount”',
      },
    ]);
  });

  it.each([
    ['Jetzt bezahlen', 'payment'],
    ['Überweisen', 'payment'],
    ['Pagar', 'payment'],
    ['Оплатить', 'payment'],
    ['Payer maintenant', 'payment'],
    ['Zapłać teraz', 'payment'],
    ['Nu betalen', 'payment'],
    ['支付', 'payment'],
    ['送金する', 'payment'],
    ['결제하기', 'payment'],
    ['Commander', 'purchase'],
    ['購入', 'purchase'],
    ['立即购买', 'purchase'],
    ['Acquista ora', 'purchase'],
    ['Comprar agora', 'purchase'],
    ['Купить', 'purchase'],
    ['Supprimer le compte', 'delete'],
    ['Eliminar', 'delete'],
    ['删除', 'delete'],
    ['Löschen', 'delete'],
    ['Usuń konto', 'delete'],
    ['Удалить', 'delete'],
    ['アカウントを削除', 'delete'],
    ['Enviar mensaje', 'message'],
    ['送信', 'message'],
    ['Invia', 'message'],
    ['Verzenden', 'message'],
    ['Wyślij', 'message'],
    ['Отправить', 'message'],
    ['发送', 'message'],
    ['Gönder', 'message'],
  ])('%s is %s', (name, kind) => {
    expect(kindOf(name)).toBe(kind);
  });

  it('every phrase of every language, alone, is its own kind', () => {
    for (const kind of ['payment', 'purchase', 'delete', 'message'] as const)
      for (const lang of RISK_LANGS)
        for (const phrase of RISK_PHRASES[kind][lang])
          expect(kindOf(phrase.replace(/\*$/u, 'а')), `${lang}: ${phrase}`).toBe(kind);
  });

  it('names are compared normalised: case, width, accents, spacing, invisible characters', () => {
    expect(normalizeRiskText('  ＰＡＹ\u3000 Now ')).toBe('pay now');
    expect(normalizeRiskText('LÖSCHEN')).toBe('loschen');
    for (const name of [
      'ＰＡＹ　ＮＯＷ',
      'Pa\u200By',
      'SUPPRIMER',
      'supprimer',
      'Ueberweisen',
      'ÜBERWEISEN',
    ])
      expect(kindOf(name), name).not.toBeNull();
    // Whole words only in spaced scripts: "pay" is not in "Payments" nor "Display".
    for (const name of ['Payments', 'Display', 'Repayment schedule', 'Unsubscribed list'])
      expect(kindOf(name), name).toBeNull();
  });

  it.each([
    '4,800.00 GBP',
    '£4,800',
    '1.234,50 €',
    'USD 12',
    '¥5000',
    '５０００円',
    '100 ₽',
    'Rs. 500',
    '12,- €',
    'R$ 49,90',
    '120 zł',
    '€ 9.99',
  ])('%s is an amount', (text) => {
    expect(hasCurrencyAmount(text)).toBe(true);
    expect(kindOf(`Confirm ${text}`)).toBe('payment');
  });

  it.each(['2 Europe', 'Page 12', 'Room 4,800', 'Try 3 days free', 'v1.2.3', 'Top 10', 'EUR'])(
    '%s is no amount',
    (text) => {
      expect(hasCurrencyAmount(text)).toBe(false);
    },
  );

  it('a price on a link, a tab, an option or an add-to-cart button is not a payment', () => {
    expect(kindOf('Show price $120', 'link')).toBeNull();
    expect(kindOf('Premium – $9.99/month', 'opt')).toBeNull();
    expect(kindOf('Yearly $99', 'tab')).toBeNull();
    expect(kindOf('Add to cart – $12.99')).toBeNull();
    expect(kindOf('In den Warenkorb 12,99 €')).toBeNull();
    // A link still counts with a verb.
    expect(kindOf('Pay $120', 'link')).toBe('payment');
    expect(kindOf('Buy now', 'link')).toBe('purchase');
  });

  it('clickAt is judged on the element the caller found there, and is not risky blind', () => {
    const at = parseAction('clickAt(120, 340)');
    expect(actionRisk(at, btn('Jetzt bezahlen'))?.kind).toBe('payment');
    expect(actionRisk(at, btn('Weiter', { context: 'IBAN' }))?.kind).toBe('payment');
    expect(actionRisk(at, undefined)).toBeNull();
  });

  it('only Enter submits; typing, choosing, hovering and scrolling commit nothing', () => {
    const amount = { role: 'inp', name: 'Amount' };
    for (const key of ['Enter', 'NumpadEnter', 'Control+Enter', 'Return'])
      expect(actionRisk(parseAction(`press("${key}")`), amount)?.kind, key).toBe('payment');
    for (const text of ['press("Tab")', 'press("ArrowDown")', 'setValue("3", "4800")'])
      expect(actionRisk(parseAction(text), amount), text).toBeNull();
    for (const text of ['select("3", "Pay now")', 'hover("3")', 'scroll("3")', 'scroll("down")'])
      expect(actionRisk(parseAction(text), btn('Pay now')), text).toBeNull();
    expect(actionRisk(enter, undefined)).toBeNull();
  });

  it('Enter on a focused control presses it; Enter in a field is judged by its form', () => {
    expect(actionRisk(enter, btn('Delete all records'))?.kind).toBe('delete');
    expect(actionRisk(enter, { role: 'inp', name: 'IBAN' })).toEqual({
      kind: 'payment',
      reason: 'Submits a form about a payment by pressing Enter in “IBAN”',
    });
    expect(actionRisk(enter, { role: 'inp', name: 'Name', context: 'Kartennummer' })).toEqual({
      kind: 'payment',
      reason: 'Submits a form about a payment (“kartennummer”) by pressing Enter in “Name”',
    });
    expect(actionRisk(enter, { role: 'txt', name: 'Message' })?.kind).toBe('message');
    expect(actionRisk(enter, { role: 'inp', name: 'Password' })).toEqual({
      kind: 'message',
      reason: 'Submits a form about credentials by pressing Enter in “Password”',
    });
    expect(actionRisk(enter, { role: 'inp', name: 'Card', form: 'payment' })).toEqual({
      kind: 'payment',
      reason: 'Submits a payment form by pressing Enter in “Card”',
    });
    expect(actionRisk(enter, { role: 'inp', name: 'Search', context: 'Search patients' })).toBe(
      null,
    );
    expect(actionRisk(enter, { role: 'inp', name: 'Notes' }, ['notes'])?.kind).toBe('user_marked');
  });

  it('a generic submit is judged by what its form or page is about', () => {
    expect(actionRisk(click, btn('Continue', { context: 'Card number · Expiry · CVC' }))).toEqual({
      kind: 'payment',
      reason: 'Submits a form about a payment (“card number”): “Continue”',
    });
    for (const [name, context, kind] of [
      ['OK', 'Transfer £4,800 to J. Smith', 'payment'],
      ['Weiter', 'Überweisung · Empfänger · Betrag', 'payment'],
      ['Confirmer', 'Suppression définitive du compte', 'delete'],
      ['Siguiente', 'Destinatario · Asunto · Mensaje', 'message'],
      ['确认', '支付宝 付款', 'payment'],
      ['Submit', 'Publish your post', 'message'],
      ['Next', 'Password', 'message'],
      ['Confirm & continue', 'Delete account', 'delete'],
      ['Continue', 'Shipping address · Your order', 'purchase'],
    ] as const)
      expect(actionRisk(click, btn(name, { context }))?.kind, `${name} / ${context}`).toBe(kind);
  });

  it('the page language picks the phrase a reason quotes, never what matches', () => {
    const target = btn('Weiter', { context: 'IBAN · Betrag' });
    expect(actionRisk(click, { ...target, lang: 'de-CH' })?.reason).toBe(
      'Submits a form about a payment (“betrag”): “Weiter”',
    );
    expect(actionRisk(click, { ...target, lang: 'en' })?.reason).toBe(
      'Submits a form about a payment (“iban”): “Weiter”',
    );
    // A page that claims to be English still has its German names judged.
    expect(actionRisk(click, btn('Jetzt bezahlen', { lang: 'en' }))?.kind).toBe('payment');
  });

  it('generic names with no telling context, links and non-generic names stay ordinary', () => {
    expect(actionRisk(click, btn('Continue'))).toBeNull();
    expect(
      actionRisk(click, btn('Submit', { context: 'Search · Search the patients' })),
    ).toBeNull();
    expect(actionRisk(click, { role: 'link', name: 'Next', context: 'IBAN' })).toBeNull();
    expect(actionRisk(click, btn('Submit request', { context: 'Reason for visit' }))).toBeNull();
    expect(actionRisk(click, btn('', { context: 'IBAN' }))).toBeNull();
  });

  it.each([
    'Search',
    'Next page',
    'Previous',
    'Add patient',
    'Save',
    'Save draft',
    'Log in',
    'Sign in',
    'Submit',
    'Submit request',
    'Submit survey',
    'Publish',
    'Approve',
    'Update name',
    'Open dialog',
    'Close',
    'Clear form',
    'Say hello',
    'Continue reading',
    'Add to cart',
    'Patients',
    'Schedule',
    'Price list',
    'Suchen',
    'Rechercher',
    'Buscar',
    'Anmelden',
    'Speichern',
    'Annulla',
    'Zahlen anzeigen',
    'Ordina per prezzo',
    'Перевести страницу',
    '検索',
    '搜索',
  ])('%s is ordinary', (name) => {
    expect(kindOf(name)).toBeNull();
  });

  it("a chain's fields tell what its generic submit sends", () => {
    const chain = [
      parseAction('setValue("1", "DE89 3704 0044 0532 0130 00")'),
      parseAction('setValue("2", "120")'),
      parseAction('click("3")'),
    ];
    const names: Record<string, RiskTarget> = {
      '1': { role: 'inp', name: 'IBAN' },
      '2': { role: 'inp', name: 'Betrag' },
      '3': { role: 'btn', name: 'Weiter' },
    };
    const targetOf = (a: ParsedAction) => ('id' in a.args ? names[a.args.id] : undefined);
    expect(actionsRisks(chain, targetOf)).toEqual([
      { index: 2, kind: 'payment', reason: 'Submits a form about a payment (“iban”): “Weiter”' },
    ]);
  });

  it('an Enter is judged on the field the chain left focused, or on the context alone', () => {
    const fields: Record<string, RiskTarget> = {
      '1': { role: 'inp', name: 'Recipient' },
      '2': { role: 'inp', name: 'Search' },
    };
    const targetOf = (a: ParsedAction) => ('id' in a.args ? fields[a.args.id] : undefined);
    const chain = (...texts: string[]) => texts.map((t) => parseAction(t));
    expect(actionsRisks(chain('setValue("2", "Khan")', 'press("Enter")'), targetOf)).toEqual([]);
    expect(
      actionsRisks(chain('setValue("1", "Jo")', 'wait(1)', 'press("Enter")'), targetOf)[0]?.index,
    ).toBe(2);
    // The focus moved somewhere unknown: the chain's fields still say what the form is about.
    const blind = actionsRisks(
      chain('setValue("1", "Jo")', 'press("Tab")', 'press("Enter")'),
      targetOf,
    );
    expect(blind).toEqual([
      {
        index: 2,
        kind: 'message',
        reason: 'Submits a form about a message (“recipient”) by pressing Enter',
      },
    ]);
    // A target the caller knows wins over the chain's guess.
    expect(
      actionsRisks(chain('setValue("1", "Jo")', 'press("Enter")'), (a, i) =>
        i === 1 ? { role: 'inp', name: 'Search' } : targetOf(a),
      )[0]?.reason,
    ).toBe('Submits a form about a message (“recipient”) by pressing Enter in “Search”');
  });

  it('finds the focused field before an action', () => {
    const chain = ['setValue("1", "a")', 'hover("2")', 'press("a")', 'press("Enter")'].map((t) =>
      parseAction(t),
    );
    expect(focusedIndexBefore(chain, 3)).toBe(0);
    expect(focusedIndexBefore(chain, 0)).toBeUndefined();
    const moved = ['setValue("1", "a")', 'clickAt(3, 4)', 'press("Enter")'].map((t) =>
      parseAction(t),
    );
    expect(focusedIndexBefore(moved, 2)).toBeUndefined();
  });
});

describe('property: risky wording is caught in any form, ordinary wording is not', () => {
  const KINDS = ['payment', 'purchase', 'delete', 'message'] as const;
  const phrases = KINDS.flatMap((kind) =>
    RISK_LANGS.flatMap((lang) => RISK_PHRASES[kind][lang].map((phrase) => ({ kind, phrase }))),
  );
  const STEM_ENDINGS = ['а', 'ить', 'ите', 'у'];
  const AROUND = ['', 'the', 'item 7', 'for Maria', 'bitte', 'ici', '»', '→', '(2)', 'all', '✓'];
  const amount = fc
    .tuple(
      fc.constantFrom('4,800.00', '12', '1.234,50', '5000', '9.99', '250'),
      fc.constantFrom(...CURRENCY_SYMBOLS, ...CURRENCY_CODES),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([n, cur, before, spaced]) => {
      const gap = spaced ? ' ' : '';
      return before ? `${cur}${gap}${n}` : `${n}${gap}${cur}`;
    });

  // Random case, full-width forms (NFKC folds them back) and odd spaces per character.
  const disguise = (text: string, mask: readonly number[]) =>
    [...text]
      .map((ch, i) => {
        const m = mask[i % mask.length] ?? 0;
        if (ch === ' ') return m % 3 === 0 ? '\u3000' : m % 3 === 1 ? '\u00a0' : ' ';
        const cased = m % 2 === 0 ? ch.toUpperCase() : ch.toLowerCase();
        const code = cased.codePointAt(0) ?? 0;
        return m % 5 === 0 && code > 0x20 && code < 0x7f && cased.length === 1
          ? String.fromCodePoint(code + 0xfee0)
          : cased;
      })
      .join('');

  it('risky phrases with surrounding words, amounts and width variants are flagged', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...phrases),
        fc.constantFrom(...STEM_ENDINGS),
        fc.constantFrom(...AROUND),
        fc.constantFrom(...AROUND),
        fc.option(amount, { nil: undefined }),
        fc.array(fc.nat(29), { minLength: 1, maxLength: 40 }),
        ({ kind, phrase }, ending, before, after, price, mask) => {
          const core = phrase.endsWith('*') ? `${phrase.slice(0, -1)}${ending}` : phrase;
          const name = disguise([before, core, after, price].filter(Boolean).join(' '), mask);
          const expected: RiskWordKind = price && kind === 'message' ? 'payment' : kind;
          expect(actionRisk(click, btn(name))?.kind, name).toBe(expected);
        },
      ),
      { seed: 28, numRuns: 300 },
    );
  });

  it('ordinary names stay ordinary in any form', () => {
    const ORDINARY = [
      'Search',
      'Next page',
      'Add patient',
      'Save',
      'Log in',
      'Sign in',
      'Submit',
      'Continue',
      'Open',
      'Edit',
      'Filter',
      'Sort by price',
      'Page 12',
      'Help',
      'Settings',
      'Payments',
      'Suchen',
      'Weiter',
      'Rechercher',
      'Buscar',
      'Cerca',
      'Zoeken',
      'Szukaj',
      'Поиск',
      '検索',
      '搜索',
      '다음',
      ...SUBMIT_PHRASES.en,
      ...SUBMIT_PHRASES.fr,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...ORDINARY),
        fc.constantFrom('', 'the', 'item 7', '→', '(2)', 'Room 4,800'),
        fc.array(fc.nat(29), { minLength: 1, maxLength: 40 }),
        fc.constantFrom('btn', 'link', 'menu'),
        (word, extra, mask, role) => {
          const name = disguise([word, extra].filter(Boolean).join(' '), mask);
          expect(actionRisk(click, { role, name }), name).toBeNull();
        },
      ),
      { seed: 28, numRuns: 300 },
    );
  });
});
