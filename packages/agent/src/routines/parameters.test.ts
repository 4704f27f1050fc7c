import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctive, findParameters, parameterNameOf, type TracedValue } from './parameters';
import { fillTemplate, renderTemplate } from '@tandem/contracts';

const typed = (...values: [string, string][]): TracedValue[] =>
  values.map(([label, value], step) => ({ step, value, label }));

function templates(goal: string, values: TracedValue[]) {
  const found = findParameters(goal, values);
  return {
    ...found,
    template: renderTemplate(found.goal),
    valueOf: (step: number) => {
      const parts = found.values.get(step);
      return parts ? renderTemplate(parts) : null;
    },
  };
}

describe('parameter discovery', () => {
  it('splits a name in the goal into the fields it was typed into', () => {
    const found = templates(
      'Add a new patient Jas Patel, born 1990-04-12, email jas.patel@example.com',
      typed(
        ['First name', 'Jas'],
        ['Last name', 'Patel'],
        ['Date of birth', '1990-04-12'],
        ['E-mail', 'jas.patel@example.com'],
        ['Gender', 'Female'],
      ),
    );
    expect(found.template).toBe(
      'Add a new patient {firstName} {lastName}, born {dateOfBirth}, email {eMail}',
    );
    expect(found.parameters).toEqual([
      { name: 'firstName', example: 'Jas', source: 'goal', steps: [0] },
      { name: 'lastName', example: 'Patel', source: 'goal', steps: [1] },
      { name: 'dateOfBirth', example: '1990-04-12', source: 'goal', steps: [2] },
      { name: 'eMail', example: 'jas.patel@example.com', source: 'goal', steps: [3] },
    ]);
    expect([0, 1, 2, 3, 4].map(found.valueOf)).toEqual([
      '{firstName}',
      '{lastName}',
      '{dateOfBirth}',
      '{eMail}',
      // Not in the goal: the run chose it on its own, so it stays what it was.
      null,
    ]);
  });

  it('composes a value of parameters already found, with the goal text between them', () => {
    const found = templates(
      'Register "Jas Patel" as a Senior Engineer',
      typed(
        ['First name', 'Jas'],
        ['Last name', 'Patel'],
        ['Full name', 'Jas Patel'],
        ['Job title', 'Senior Engineer'],
      ),
    );
    expect(found.template).toBe('Register "{firstName} {lastName}" as a {jobTitle}');
    expect(found.valueOf(2)).toBe('{firstName} {lastName}');
    expect(found.parameters.map((p) => [p.name, p.steps])).toEqual([
      ['firstName', [0, 2]],
      ['lastName', [1, 2]],
      ['jobTitle', [3]],
    ]);
  });

  it('leaves look-alikes alone: words inside other values, values the run did not type', () => {
    const found = templates(
      'Add patient Jas to Ward 7 with 2 notes',
      typed(['First name', 'Jasmine'], ['Room', '72'], ['Notes', '2']),
    );
    // "Jasmine" and "72" contain goal words but are not goal words: literal.
    expect(found.valueOf(0)).toBeNull();
    expect(found.valueOf(1)).toBeNull();
    expect(found.valueOf(2)).toBe('{notes}');
    expect(found.template).toBe('Add patient Jas to Ward 7 with {notes} notes');
  });

  it('takes explicit {{…}} markers, named or not, and never a secret reference', () => {
    const found = templates(
      'Log in as {{user=jas}} with {{secret:password}} and open {{Quarterly report}}',
      typed(
        ['Username', 'jas'],
        ['Password', '{{secret:password}}'],
        ['Search', 'Quarterly report'],
      ),
    );
    expect(found.plainGoal).toBe(
      'Log in as jas with {{secret:password}} and open Quarterly report',
    );
    expect(found.template).toBe('Log in as {user} with {{{{secret:password}}}} and open {search}');
    expect(found.parameters).toEqual([
      { name: 'user', example: 'jas', source: 'explicit', steps: [0] },
      { name: 'search', example: 'Quarterly report', source: 'explicit', steps: [2] },
    ]);
    expect(found.valueOf(1)).toBeNull();
  });

  it('names parameters after their fields, numbered when nameless or taken', () => {
    expect(parameterNameOf('First name')).toBe('firstName');
    expect(parameterNameOf('  Job   Title: ')).toBe('jobTitle');
    expect(parameterNameOf('Prénom')).toBe('prenom');
    expect(parameterNameOf('2nd line')).toBe('field2ndLine');
    expect(parameterNameOf('—')).toBeNull();
    const found = templates(
      'Copy 41 and 42 to Alpha',
      typed(['', '41'], ['Code', '42'], ['Code', 'Alpha']),
    );
    expect(found.template).toBe('Copy {param1} and {code} to {code2}');
  });

  it('keeps the whitespace around a typed value', () => {
    const found = templates('Search for shoes', typed(['Search', ' shoes ']));
    expect(found.valueOf(0)).toBe(' {search} ');
    expect(fillTemplate(found.valueOf(0) ?? '', { search: 'boots' })).toBe(' boots ');
  });
});

describe('parameter discovery: values inside a clicked element’s name', () => {
  const named = (value: string, partial: TracedValue['partial'] = 'also'): TracedValue[] => [
    { step: 0, value, label: 'item', partial },
  ];

  it('traces a distinctive run of goal words inside the name, the rest literal', () => {
    const found = templates('Approve invoice INV-1003', named('Approve INV-1003'));
    expect(found.template).toBe('Approve invoice {item}');
    expect(found.valueOf(0)).toBe('Approve {item}');
    expect(found.parameters).toEqual([
      { name: 'item', example: 'INV-1003', source: 'goal', steps: [0] },
    ]);
    // Typed text is never traced in part: "Approve INV-1003" was not typed from the goal.
    expect(
      templates('Approve invoice INV-1003', typed(['Note', 'Approve INV-1003'])).valueOf(0),
    ).toBeNull();
    // A look-alike is another id, not this one with a suffix.
    expect(templates('Approve invoice INV-1004', named('Approve INV-10045')).valueOf(0)).toBeNull();
  });

  it('skips the whole name when it is the goal’s verb, and a run the goal opens with', () => {
    const verb = templates('Approve INV-1003 today', named('Approve INV-1003', 'only'));
    expect(verb.template).toBe('Approve {item} today');
    expect(verb.valueOf(0)).toBe('Approve {item}');
    expect(templates('Approve', named('Approve', 'only')).valueOf(0)).toBeNull();
    expect(templates('INV-1003 needs approving', named('Approve INV-1003')).valueOf(0)).toBeNull();
  });

  it('calls distinctive only identifiers and names of several capitalised words', () => {
    const yes = [
      ['INV-1003'],
      ['12B'],
      ['ops@acme.test'],
      ['ACME-EU'],
      ['user_id'],
      ['Jas', 'Patel'],
      ['Data', 'Analyst'],
    ];
    const no = [
      ['Add'],
      ['patient'],
      ['Approve'],
      ['Follow-up'],
      ['e-mail'],
      ['OK'],
      ['ACME'],
      ['Data', 'analyst'],
      ['Add', 'INV-1'],
      [],
    ];
    for (const words of yes) expect(distinctive(words), words.join(' ')).toBe(true);
    for (const words of no) expect(distinctive(words), words.join(' ')).toBe(false);
  });

  it('round-trips generated ids: the name filled with another id is that id’s button', () => {
    const id = fc
      .tuple(fc.stringMatching(/^[A-Z]{2,4}$/), fc.integer({ min: 1, max: 99_999 }))
      .map(([prefix, n]) => `${prefix}-${n}`);
    const verb = fc.constantFrom('Approve', 'Reject', 'Pay', 'Archive');
    fc.assert(
      fc.property(id, id, verb, fc.boolean(), (first, other, action, polite) => {
        const goal = polite
          ? `Please ${action.toLowerCase()} invoice ${first} today`
          : `${action} the invoice ${first}`;
        const found = templates(goal, named(`${action} ${first}`));
        const [param] = found.parameters;
        expect(found.parameters).toHaveLength(1);
        expect(param?.example).toBe(first);
        const name = found.valueOf(0) ?? '';
        expect(name).toBe(`${action} {${param?.name}}`);
        const examples = { [param?.name ?? '']: first };
        expect(fillTemplate(found.template, examples)).toBe(goal);
        expect(fillTemplate(name, examples)).toBe(`${action} ${first}`);
        expect(fillTemplate(name, { [param?.name ?? '']: other })).toBe(`${action} ${other}`);
        // A look-alike (the id with a digit more) names no value of this goal.
        expect(templates(goal, named(`${action} ${first}7`)).valueOf(0)).toBeNull();
      }),
      { seed: 33, numRuns: 200 },
    );
  });
});

// Random goals built from a template: the values typed come from the goal, and decoys (in the
// goal, never typed) must stay literal.
const word = fc.stringMatching(/^[A-Z][a-z]{2,9}$/);
const value = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
  fc.integer({ min: 1, max: 999_999 }).map(String),
  fc
    .tuple(word, fc.constantFrom('example.com', 'mail.test'))
    .map(([u, d]) => `${u.toLowerCase()}@${d}`),
  fc
    .date({ min: new Date('1950-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
);

const goalOf = (values: readonly string[], decoys: readonly string[]) =>
  `Please file ${values.map((v, i) => `field${i} "${v}"`).join(', ')} near ${decoys.join(' ')} today`;

describe('parameter discovery: round trips', () => {
  it('compile then substitute gives back the goal and every typed value; decoys stay literal', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(value, { minLength: 1, maxLength: 4, selector: (v) => v.toLowerCase() }),
        fc.uniqueArray(word, { minLength: 0, maxLength: 2 }),
        (values, decoys) => {
          // Values that overlap one another or a decoy as words would make the trace ambiguous.
          const words = values.flatMap((v) => v.split(' '));
          fc.pre(new Set(words).size === words.length);
          fc.pre(decoys.every((d) => !words.includes(d)));
          const goal = goalOf(values, decoys);
          const traced = values.map((v, step) => ({ step, value: v, label: `Field ${step}` }));
          const found = findParameters(goal, traced);
          const template = renderTemplate(found.goal);
          const examples = Object.fromEntries(found.parameters.map((p) => [p.name, p.example]));
          expect(fillTemplate(template, examples)).toBe(goal);
          for (const { step, value: typedValue } of traced) {
            const parts = found.values.get(step);
            expect(parts).toBeDefined();
            expect(fillTemplate(renderTemplate(parts ?? []), examples)).toBe(typedValue);
          }
          // Every parameter was typed; no decoy became one.
          expect(found.parameters.every((p) => p.steps.length > 0)).toBe(true);
          for (const decoy of decoys) {
            expect(found.parameters.some((p) => p.example.includes(decoy))).toBe(false);
            expect(template).toContain(decoy);
          }
          // Other values substituted give the goal those values would have made.
          const other = Object.fromEntries(found.parameters.map((p) => [p.name, `New${p.name}`]));
          const nameOf = (v: string) => found.parameters.find((p) => p.example === v)?.name ?? '';
          expect(fillTemplate(template, other)).toBe(
            goalOf(
              values.map((v) => other[nameOf(v)] ?? ''),
              decoys,
            ),
          );
        },
      ),
      { seed: 33, numRuns: 300 },
    );
  });
});
