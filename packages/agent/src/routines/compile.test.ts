import { parseAction, RoutineDraft, fillTemplate } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { FILLED, form, formRun, GOAL, sent, verdict } from '../testing/routine-runs';
import { pageOf } from '../testing/state';
import { compileRoutine, type CompileInput } from './compile';
import { traceEntry, type RoutineTraceEntry } from './trace';

const input = (trace: RoutineTraceEntry[], over: Partial<CompileInput> = {}): CompileInput => ({
  query: GOAL,
  status: 'completed',
  trace,
  ...over,
});

describe('compileRoutine', () => {
  it('compiles a verified form run into parameterised steps with locators and outcomes', () => {
    const result = compileRoutine(input(formRun()));
    if (!result.ok) throw new Error(result.reason);
    const { draft } = result;
    expect(RoutineDraft.parse(draft)).toEqual(draft);
    expect(draft).toMatchObject({
      site: 'emr.test',
      goalTemplate: 'Add a new patient {firstName} {lastName}, {gender}',
      name: 'Add a new patient ‹first name› ‹last name›, ‹gender›',
    });
    // The option matches the goal's "female" ignoring case; the example is the goal's text.
    expect(draft.parameters).toEqual([
      { name: 'firstName', example: 'Jas', source: 'goal', steps: [0] },
      { name: 'lastName', example: 'Patel', source: 'goal', steps: [1] },
      { name: 'gender', example: 'female', source: 'goal', steps: [2] },
    ]);
    expect(draft.steps.map((s) => [s.action, s.value, s.chained, s.safety])).toEqual([
      ['setValue', '{firstName}', true, 'safe'],
      ['setValue', '{lastName}', true, 'safe'],
      ['select', '{gender}', false, 'safe'],
      ['click', null, false, 'safe'],
    ]);
    const [first, , gender, save] = draft.steps;
    expect(first?.target).toEqual({
      fingerprint: 'inp|First name|f0|#0',
      locators: [
        { by: 'role-name', role: 'inp', name: 'First name' },
        { by: 'label', text: 'First name' },
        { by: 'near', role: 'inp', text: 'Patients', side: 'after' },
        { by: 'near', role: 'inp', text: 'Last name', side: 'before' },
        { by: 'ordinal', role: 'inp', index: 0 },
      ],
    });
    // A chain is verified as one unit: its outcome sits on its last action.
    expect(first?.expect).toBeNull();
    expect(gender?.expect).toMatchObject({ fieldsHold: true, urlChanged: false, tier: 1 });
    expect(save?.expect).toEqual({
      tier: 1,
      urlChanged: true,
      url: 'https://emr.test/patients/17',
      domChanged: true,
      network: true,
      fieldsHold: false,
      text: ['Patient saved'],
      reason: 'the click navigated as expected',
    });
    // Another patient: the template gives the goal, the steps give what to type.
    const other = { firstName: 'Kim', lastName: 'Lee', gender: 'male' };
    expect(fillTemplate(draft.goalTemplate, other)).toBe('Add a new patient Kim Lee, male');
    expect(
      draft.steps.map((s) => (s.value === null ? null : fillTemplate(s.value, other))),
    ).toEqual(['Kim', 'Lee', 'male', null]);
  });

  it('refuses a task that did not complete or has no steps', () => {
    expect(compileRoutine(input(formRun(), { status: 'failed' }))).toEqual({
      ok: false,
      reason: 'the task is failed, not completed',
    });
    expect(compileRoutine(input([]))).toEqual({ ok: false, reason: 'no verified steps' });
  });

  it('refuses a step that failed and was not healed', () => {
    const [fill, save] = formRun() as [RoutineTraceEntry, RoutineTraceEntry];
    const failedSave = { ...save, verified: false, expect: { ...save.expect, urlChanged: false } };
    expect(compileRoutine(input([fill, failedSave]))).toEqual({
      ok: false,
      reason: 'step 2 failed and was not healed',
    });
    // A later verdict on another plan step does not heal it.
    const nextStep = { ...save, stepIndex: 2 };
    expect(compileRoutine(input([fill, failedSave, nextStep])).ok).toBe(false);
  });

  it('drops a failure the next verdict on the same step healed', () => {
    const [fill, save] = formRun() as [RoutineTraceEntry, RoutineTraceEntry];
    const missed = traceEntry(
      sent(form(FILLED), ['click("nav")'], { stepIndex: 1 }),
      form(FILLED),
      verdict(false, 'nothing changed after the click'),
      false,
    );
    const result = compileRoutine(input([fill, missed, { ...save, source: 'correction' }]));
    if (!result.ok) throw new Error(result.reason);
    expect(result.draft.steps.map((s) => s.action)).toEqual([
      'setValue',
      'setValue',
      'select',
      'click',
    ]);
    expect(result.draft.steps[3]?.target?.fingerprint).toBe('btn|Save|f0|#0');
  });

  it('refuses a failure that moved the page, and a chain that stopped part-way', () => {
    const [fill, save] = formRun() as [RoutineTraceEntry, RoutineTraceEntry];
    const moved = { ...save, verified: false, expect: { ...save.expect, urlChanged: true } };
    expect(compileRoutine(input([fill, moved, save]))).toEqual({
      ok: false,
      reason: 'a failed action on step 2 moved to another page',
    });
    const partial = { ...fill, verified: false, partial: true };
    expect(compileRoutine(input([partial, fill, save]))).toEqual({
      ok: false,
      reason: 'a chain on step 1 stopped part-way, unverified',
    });
  });

  it('refuses a target without locators and actions it cannot replay', () => {
    const [fill, save] = formRun() as [RoutineTraceEntry, RoutineTraceEntry];
    const lost = { ...save, actions: save.actions.map((a) => ({ ...a, target: null })) };
    expect(compileRoutine(input([fill, lost]))).toEqual({
      ok: false,
      reason: 'no locators were kept for the target of click on step 2',
    });
    const point = {
      ...save,
      actions: [{ action: parseAction('clickAt(10, 20)'), target: null }],
    };
    expect(compileRoutine(input([fill, point]))).toEqual({
      ok: false,
      reason: 'clickAt cannot be replayed',
    });
  });

  it('classes risky actions and marks steps that only cleared the way', () => {
    const dialog = pageOf(
      [
        { i: 'ok', r: 'btn', n: 'Accept cookies' },
        { i: 'del', r: 'btn', n: 'Delete patient' },
      ],
      { url: 'https://emr.test/patients/17' },
    );
    const after = pageOf([{ i: 'del', r: 'btn', n: 'Delete patient' }], {
      url: 'https://emr.test/patients/17',
    });
    const cookies = traceEntry(
      sent(dialog, ['click("ok")'], { contingency: 'cookie banner' }),
      after,
      verdict(true),
      false,
    );
    const remove = traceEntry(
      sent(after, ['click("del")'], { stepIndex: 0 }),
      pageOf([], { url: 'https://emr.test/patients' }),
      verdict(true),
      false,
    );
    const result = compileRoutine(input([cookies, remove], { query: 'Delete patient 17' }));
    if (!result.ok) throw new Error(result.reason);
    expect(result.draft.steps.map((s) => [s.optional, s.safety])).toEqual([
      [true, 'safe'],
      [false, 'delete'],
    ]);
    expect(result.draft.parameters).toEqual([]);
    expect(result.draft.goalTemplate).toBe('Delete patient 17');
  });

  it('keeps literal braces in typed values and goals', () => {
    const typed = traceEntry(
      sent(form(), ['setValue("first", "{{secret:pin}}")']),
      form({ first: '********' }),
      verdict(true),
      false,
    );
    const result = compileRoutine(input([typed], { query: 'Type my {pin} into First name' }));
    if (!result.ok) throw new Error(result.reason);
    expect(result.draft.steps[0]?.value).toBe('{{{{secret:pin}}}}');
    expect(result.draft.goalTemplate).toBe('Type my {{pin}} into First name');
    expect(fillTemplate(result.draft.steps[0]?.value ?? '', {})).toBe('{{secret:pin}}');
  });

  it('takes a name the goal gave to a clicked choice as a parameter, never a button’s', () => {
    const url = 'https://clinic.test/visit';
    const menu = pageOf(
      [
        { i: 'd', r: 'combo', n: 'Department', v: '' },
        { i: 'o1', r: 'opt', n: 'Cardiology' },
        { i: 'o2', r: 'opt', n: 'Neurology' },
        { i: 'go', r: 'btn', n: 'Choose' },
      ],
      { url },
    );
    const picked = pageOf(menu.tree, { url, successMessages: ['Neurology chosen'] });
    const trace = [
      traceEntry(sent(menu, ['click("o2")']), picked, verdict(true), false),
      traceEntry(sent(picked, ['click("go")']), picked, verdict(true), false),
    ];
    const result = compileRoutine(input(trace, { query: 'Choose Neurology in the menu' }));
    if (!result.ok) throw new Error(result.reason);
    const { draft } = result;
    const [param] = draft.parameters;
    expect(draft.goalTemplate).toBe(`Choose {${param?.name}} in the menu`);
    expect(param).toMatchObject({ name: 'option', example: 'Neurology', steps: [0] });
    expect(draft.steps[0]?.target?.name).toBe(`{${param?.name}}`);
    // "Choose" is the button's name and the goal's verb: it stays literal.
    expect(draft.steps[1]?.target?.name).toBeUndefined();
  });

  it('takes a button named as a thing from the goal, but not one named by its verb', () => {
    const url = 'https://jobs.test/';
    const board = pageOf(
      [
        { i: 'j1', r: 'btn', n: 'Data Analyst' },
        { i: 'j2', r: 'btn', n: 'Product Manager' },
        { i: 'p', r: 'btn', n: 'Publish' },
      ],
      { url },
    );
    const shown = pageOf(board.tree, { url, successMessages: ['Details of JOB-7'] });
    const details = compileRoutine(
      input([traceEntry(sent(board, ['click("j1")']), shown, verdict(true), false)], {
        query: 'Show the details of the Data Analyst job',
      }),
    );
    if (!details.ok) throw new Error(details.reason);
    // Named for what it is, not after a neighbouring card.
    expect(details.draft.goalTemplate).toBe('Show the details of the {item} job');
    expect(details.draft.steps[0]?.target?.name).toMatch(/^\{\w+\}$/);
    const publish = compileRoutine(
      input([traceEntry(sent(board, ['click("p")']), shown, verdict(true), false)], {
        query: 'Publish the Data Analyst job',
      }),
    );
    if (!publish.ok) throw new Error(publish.reason);
    expect(publish.draft.goalTemplate).toBe('Publish the Data Analyst job');
    expect(publish.draft.steps[0]?.target?.name).toBeUndefined();
  });

  it('does not take common words of the goal for the names of clicked menus', () => {
    const url = 'https://emr.test/';
    const menu = pageOf(
      [
        { i: 'p', r: 'link', n: 'Patients' },
        { i: 'r', r: 'link', n: 'Recent' },
      ],
      { url },
    );
    const recent = pageOf(menu.tree, { url: 'https://emr.test/recent' });
    const result = compileRoutine(
      input(
        [
          traceEntry(sent(menu, ['click("p")']), menu, verdict(true), false),
          traceEntry(sent(menu, ['click("r")']), recent, verdict(true), false),
        ],
        { query: 'Show me the recent patients' },
      ),
    );
    if (!result.ok) throw new Error(result.reason);
    expect(result.draft.goalTemplate).toBe('Show me the recent patients');
    expect(result.draft.parameters).toEqual([]);
  });
  describe('a distinctive value inside a clicked element’s name', () => {
    const url = 'https://erp.test/invoices';
    const ids = ['INV-1001', 'INV-1002', 'INV-1003', 'INV-1004', 'INV-1005'];
    const list = pageOf(
      ids.flatMap((id, k) => [
        { i: `s${k}`, r: 'txt', n: `${id} · Vendor ${k}` },
        { i: `a${k}`, r: 'btn', n: `Approve ${id}` },
      ]),
      { url },
    );
    const approved = pageOf(list.tree, { url, successMessages: ['Approved'] });
    const clicks = (...ks: number[]) =>
      ks.map((k) => traceEntry(sent(list, [`click("a${k}")`]), approved, verdict(true), false));
    const compiled = (query: string, trace: RoutineTraceEntry[]) => {
      const result = compileRoutine(input(trace, { query }));
      if (!result.ok) throw new Error(result.reason);
      return result.draft;
    };

    it('becomes the parameter, the rest of the name a template around it', () => {
      const one = compiled('Approve invoice INV-1003', clicks(2));
      expect(one.goalTemplate).toBe('Approve invoice {item}');
      expect(one.parameters).toEqual([
        { name: 'item', example: 'INV-1003', source: 'goal', steps: [0] },
      ]);
      expect(one.steps[0]?.target?.name).toBe('Approve {item}');
      expect(fillTemplate(one.steps[0]?.target?.name ?? '', { item: 'INV-1004' })).toBe(
        'Approve INV-1004',
      );
      const two = compiled('Approve invoices INV-1002 and INV-1005', clicks(1, 4));
      expect(two.goalTemplate).toBe('Approve invoices {item} and {item2}');
      expect(two.parameters.map((p) => [p.name, p.example, p.steps])).toEqual([
        ['item', 'INV-1002', [0]],
        ['item2', 'INV-1005', [1]],
      ]);
      expect(two.steps.map((step) => step.target?.name)).toEqual([
        'Approve {item}',
        'Approve {item2}',
      ]);
    });

    it('keeps a verb that names the whole button literal, its value still a parameter', () => {
      const draft = compiled('Approve INV-1003 today', clicks(2));
      expect(draft.goalTemplate).toBe('Approve {item} today');
      expect(draft.steps[0]?.target?.name).toBe('Approve {item}');
    });

    it('takes no common word, no lower-case goal and no run the goal opens with', () => {
      const page = pageOf(
        [
          { i: 'n', r: 'btn', n: 'Add Patient' },
          { i: 'd', r: 'btn', n: 'Save Draft changes' },
          { i: 'a', r: 'btn', n: 'Approve INV-1003' },
        ],
        { url },
      );
      const done = pageOf(page.tree, { url, successMessages: ['Done'] });
      const click = (id: string) => [
        traceEntry(sent(page, [`click("${id}")`]), done, verdict(true), false),
      ];
      const cases: [string, string][] = [
        // "Patient" is a word the name shares with the goal's prose, not a value.
        ['Please open the Patient list', 'n'],
        ['Add a new patient', 'n'],
        // Two capitalised words, but they open the goal: its verb and object.
        ['Save Draft and close', 'd'],
        // The page writes the id in capitals; a goal that does not names no element.
        ['approve invoice inv-1003', 'a'],
      ];
      for (const [query, id] of cases) {
        const draft = compiled(query, click(id));
        expect(draft.parameters).toEqual([]);
        expect(draft.goalTemplate).toBe(query);
        expect(draft.steps[0]?.target?.name).toBeUndefined();
      }
    });

    it('takes a capitalised name of several words inside a link’s name', () => {
      const page = pageOf([{ i: 'l', r: 'link', n: 'Open chart of Jas Patel' }], { url });
      const draft = compiled('Show the chart for Jas Patel please', [
        traceEntry(sent(page, ['click("l")']), page, verdict(true), false),
      ]);
      expect(draft.goalTemplate).toBe('Show the chart for {link} please');
      expect(draft.steps[0]?.target?.name).toBe('Open chart of {link}');
    });
  });
});
