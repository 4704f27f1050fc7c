import type { Routine, RoutineRepository } from '@tandem/store';
import { routineRecord } from '@tandem/store/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findRoutineForGoal, matchGoal, MAX_CANDIDATES, type MatchableRoutine } from './match';
import { fillTemplate } from '@tandem/contracts';

const routine = (goalTemplate: string, ...names: string[]): MatchableRoutine => ({
  goalTemplate,
  parameters: names.map((name) => ({ name })),
});

const PATIENT = routine(
  'Add a new patient {firstName} {lastName}, {gender}',
  'firstName',
  'lastName',
  'gender',
);

describe('matchGoal', () => {
  it('reads another patient off the template, ignoring case and spacing of the literal text', () => {
    expect(matchGoal('Add a new patient Kim Lee, male', PATIENT)).toEqual({
      match: true,
      values: { firstName: 'Kim', lastName: 'Lee', gender: 'male' },
    });
    // The values keep the goal's own case and inner text; only the template's text is folded.
    expect(matchGoal('  ADD a NEW\tpatient   Ana  De-Souza ,   Female ', PATIENT)).toEqual({
      match: true,
      values: { firstName: 'Ana', lastName: 'De-Souza', gender: 'Female' },
    });
  });

  it('refuses a goal whose literal text differs, or that leaves a parameter empty', () => {
    expect(matchGoal('Delete the patient Kim Lee, male', PATIENT)).toMatchObject({ match: false });
    expect(matchGoal('Add a new patient Kim Lee, male today', PATIENT)).toEqual({
      match: true,
      // The last parameter takes the rest: "male today" is what the goal says there.
      values: { firstName: 'Kim', lastName: 'Lee', gender: 'male today' },
    });
    expect(matchGoal('Add a new patient Kim Lee', PATIENT)).toMatchObject({ match: false });
    expect(matchGoal('Add a new patient Kim , male', PATIENT)).toMatchObject({ match: false });
    expect(matchGoal('Add a new patient Kim Lee,', PATIENT)).toMatchObject({ match: false });
    const plain = routine('Open the weekly report');
    expect(matchGoal('open  the WEEKLY report', plain)).toEqual({ match: true, values: {} });
    expect(matchGoal('Open the monthly report', plain)).toMatchObject({ match: false });
  });

  it('returns every split when adjacent parameters can be read more than one way', () => {
    expect(matchGoal('Add a new patient Mary Ann Smith, female', PATIENT)).toEqual({
      match: 'ambiguous',
      candidates: [
        { firstName: 'Mary', lastName: 'Ann Smith', gender: 'female' },
        { firstName: 'Mary Ann', lastName: 'Smith', gender: 'female' },
      ],
    });
    // Parameters with nothing between them: any cut is a reading, and too many are capped.
    const glued = routine('Code {a}{b}', 'a', 'b');
    expect(matchGoal('Code XY', glued)).toEqual({ match: true, values: { a: 'X', b: 'Y' } });
    const many = matchGoal('Code ABCDEFGHIJKLMNOP', glued);
    expect(many.match).toBe('ambiguous');
    if (many.match === 'ambiguous') expect(many.candidates).toHaveLength(MAX_CANDIDATES);
  });

  it('takes any parameter name, even one an object would already have', () => {
    const odd = routine('Set {constructor} to {toString}', 'constructor', 'toString');
    expect(matchGoal('Set a to b', odd)).toEqual({
      match: true,
      values: { constructor: 'a', toString: 'b' },
    });
  });

  it('requires a parameter the template says twice to be said the same both times', () => {
    const twice = routine('Rename {name} to {name} copy', 'name');
    expect(matchGoal('Rename Budget to Budget copy', twice)).toEqual({
      match: true,
      values: { name: 'Budget' },
    });
    expect(matchGoal('Rename Budget to Plan copy', twice)).toMatchObject({ match: false });
  });

  it('reads explicit {{…}} markers as the compiler does; a named one fixes its parameter', () => {
    const login = routine(
      'Log in as {user} with {{{{secret:password}}}} and open {search}',
      'user',
      'search',
    );
    expect(matchGoal('Log in as {{user=kim}} with {{secret:password}} and open Q3', login)).toEqual(
      { match: true, values: { user: 'kim', search: 'Q3' } },
    );
    expect(
      matchGoal('Log in as {{ kim }} with {{secret:password}} and open {{Weekly sales}}', login),
    ).toEqual({ match: true, values: { user: 'kim', search: 'Weekly sales' } });
    // The secret reference is template text: another secret is another goal.
    expect(matchGoal('Log in as kim with {{secret:token}} and open Q3', login)).toMatchObject({
      match: false,
    });
    // A named marker settles what the text alone cannot.
    expect(matchGoal('Add a new patient {{firstName=Mary Ann}} Smith, female', PATIENT)).toEqual({
      match: true,
      values: { firstName: 'Mary Ann', lastName: 'Smith', gender: 'female' },
    });
    expect(matchGoal('Add a new patient Mary {{lastName=Ann Smith}}, female', PATIENT)).toEqual({
      match: true,
      values: { firstName: 'Mary', lastName: 'Ann Smith', gender: 'female' },
    });
    // So does an unnamed one, as a preference.
    expect(matchGoal('Add a new patient {{Mary Ann}} Smith, female', PATIENT)).toMatchObject({
      match: true,
      values: { firstName: 'Mary Ann' },
    });
    // A named marker that cannot hold: the user said which value is which, and it does not fit.
    expect(matchGoal('Add a new patient {{gender=Kim}} Lee, male', PATIENT)).toMatchObject({
      match: false,
    });
  });

  it('refuses a template that does not agree with the routine’s parameters', () => {
    expect(matchGoal('Add Kim', routine('Add {name}'))).toMatchObject({
      match: false,
      reason: 'the template uses {name}, not a routine parameter',
    });
    expect(matchGoal('Add Kim', routine('Add Kim', 'name'))).toMatchObject({ match: false });
    expect(matchGoal('Add Kim', routine('Add {name', 'name'))).toMatchObject({ match: false });
  });
});

// Random values substituted into a template read back as the same values, as long as no value
// holds the template's literal text (then the split is genuinely ambiguous).
const word = fc.stringMatching(/^[A-Za-zÀ-ÿ0-9][A-Za-zÀ-ÿ0-9@.'-]{0,11}$/);
const value = fc
  .array(word, { minLength: 1, maxLength: 3 })
  .map((words) => words.join(' '))
  .filter((v) => !/\b(for|at|on|by|then|add)\b/i.test(v));

describe('matchGoal: round trips', () => {
  const template = 'Add {first} {{x}} for {who} at {place}, then {note}';
  const names = ['first', 'who', 'place', 'note'];
  const r = routine(template, ...names);

  it('gives back the values a goal was made from', () => {
    fc.assert(
      fc.property(
        fc.tuple(word, value, value, value),
        fc.constantFrom('', ' ', '  '),
        ([first, who, place, note], pad) => {
          fc.pre(![who, place, note].some((v) => v.includes(',')));
          const values = { first, who, place, note };
          const goal = pad + fillTemplate(template, values) + pad;
          expect(matchGoal(goal, r)).toEqual({ match: true, values });
          // Shouting the goal changes no literal text, and each value comes back as written.
          const shouted = fillTemplate(
            template
              .toUpperCase()
              .replace(/\{([A-Z]+)\}/g, (_, n: string) => `{${n.toLowerCase()}}`),
            values,
          );
          expect(matchGoal(shouted, r)).toEqual({ match: true, values });
          // Values are the goal's text, never anything else.
          for (const v of Object.values(values)) expect(goal).toContain(v);
        },
      ),
      { seed: 33, numRuns: 300 },
    );
  });

  it('never matches a goal whose literal text was changed', () => {
    fc.assert(
      fc.property(
        fc.tuple(word, value, value, value),
        fc.constantFrom('Add', '{x}', 'for', 'at', ',', 'then'),
        fc.constantFrom('Remove', '{y}', 'from', 'in', ';', 'and'),
        ([first, who, place, note], from, to) => {
          fc.pre(![who, place, note].some((v) => v.includes(',')));
          const changed = template.replace(
            from === '{x}' ? '{{x}}' : from,
            to === '{y}' ? '{{y}}' : to,
          );
          const goal = fillTemplate(changed, { first, who, place, note });
          expect(matchGoal(goal, r).match).toBe(false);
        },
      ),
      { seed: 33, numRuns: 300 },
    );
  });
});

const stored = (over: Partial<Routine> & Pick<Routine, 'id' | 'goalTemplate'>): Routine =>
  routineRecord({ name: over.goalTemplate, createdAt: '2026-11-01T00:00:00.000Z', ...over });

/** A repository over a list, newest first, pages of two (so the lookup has to page). */
function repo(
  all: Routine[],
): Pick<RoutineRepository, 'list' | 'findLatest'> & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    list(tenantId, options = {}) {
      calls.push(`list:${options.cursor ?? ''}`);
      const mine = all.filter((r) => r.tenantId === tenantId && r.site === options.site);
      const start = Number(options.cursor ?? 0);
      const items = mine.slice(start, start + 2);
      const next = start + 2 < mine.length ? String(start + 2) : null;
      return Promise.resolve({ items, nextCursor: next });
    },
    findLatest(tenantId, input) {
      calls.push(`latest:${input.goalTemplate}`);
      const versions = all
        .filter(
          (r) =>
            r.tenantId === tenantId &&
            r.site === input.site &&
            r.goalTemplate === input.goalTemplate &&
            r.enabled,
        )
        .sort((a, b) => b.version - a.version);
      return Promise.resolve(versions[0] ?? null);
    },
  };
}

describe('findRoutineForGoal', () => {
  const params = (...names: string[]) =>
    names.map((name) => ({ name, example: 'x', source: 'goal' as const, steps: [0] }));
  const patient = 'Add a new patient {firstName} {lastName}, {gender}';
  const all = [
    stored({
      id: 'v3',
      goalTemplate: patient,
      version: 3,
      enabled: false,
      parameters: params('firstName', 'lastName', 'gender'),
    }),
    stored({ id: 'other', goalTemplate: 'Open the weekly report' }),
    stored({
      id: 'v2',
      goalTemplate: patient,
      version: 2,
      parameters: params('firstName', 'lastName', 'gender'),
    }),
    stored({
      id: 'name',
      goalTemplate: 'Add a new patient {name}, {gender}',
      parameters: params('name', 'gender'),
    }),
    stored({
      id: 'v1',
      goalTemplate: patient,
      version: 1,
      parameters: params('firstName', 'lastName', 'gender'),
    }),
    stored({
      id: 'elsewhere',
      site: 'jobs.test',
      goalTemplate: patient,
      parameters: params('firstName', 'lastName', 'gender'),
    }),
    stored({ id: 'foreign', tenantId: 't2', goalTemplate: 'Open the monthly report' }),
  ];

  it('finds the highest enabled version of the template the goal matches, paging the site', async () => {
    const r = repo(all);
    const found = await findRoutineForGoal(r, 't1', 'emr.test', 'Add a new patient Kim Lee, male');
    expect(found?.routine.id).toBe('v2');
    expect(found?.match).toEqual({
      match: true,
      values: { firstName: 'Kim', lastName: 'Lee', gender: 'male' },
    });
    // Every page read, each template asked for its runnable version only when it matched.
    expect(r.calls.filter((c) => c.startsWith('list'))).toHaveLength(3);
    expect(r.calls.filter((c) => c.startsWith('latest'))).toEqual([`latest:${patient}`]);
  });

  it('prefers a definite match to an ambiguous one, and finds nothing across tenants or sites', async () => {
    const r = repo(all);
    const goal = 'Add a new patient Mary Ann Smith, female';
    const found = await findRoutineForGoal(r, 't1', 'emr.test', goal);
    expect(found?.routine.id).toBe('name');
    expect(found?.match).toEqual({
      match: true,
      values: { name: 'Mary Ann Smith', gender: 'female' },
    });
    const onlyAmbiguous = await findRoutineForGoal(
      repo(all.filter((x) => x.id !== 'name')),
      't1',
      'emr.test',
      goal,
    );
    expect(onlyAmbiguous?.routine.id).toBe('v2');
    expect(onlyAmbiguous?.match.match).toBe('ambiguous');
    expect(await findRoutineForGoal(r, 't1', 'emr.test', 'Open the monthly report')).toBeNull();
    expect(
      await findRoutineForGoal(r, 't2', 'jobs.test', 'Add a new patient Kim Lee, male'),
    ).toBeNull();
  });

  it('finds nothing when every version of the matching template is disabled', async () => {
    const off = all.map((x) => (x.goalTemplate === patient ? { ...x, enabled: false } : x));
    const found = await findRoutineForGoal(
      repo(off),
      't1',
      'emr.test',
      'Add a new patient Kim Lee, male',
    );
    // The other template still reads the goal (name = "Kim Lee").
    expect(found?.routine.id).toBe('name');
    const none = off.filter((x) => x.id !== 'name');
    expect(
      await findRoutineForGoal(repo(none), 't1', 'emr.test', 'Add a new patient Kim Lee, male'),
    ).toBeNull();
  });
});
