import type { SemanticNodeV3 } from '@tandem/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  domSimilarity,
  elementSignature,
  isInteractiveRole,
  replanTrigger,
  urlPath,
} from './dom-similarity';
import {
  dashboardInteractive,
  dashboardRich,
  emrPatientsMenu,
  newSearchInteractive,
  newSearchRich,
} from './emr-fixtures';

const renumber = (tree: readonly SemanticNodeV3[]) =>
  tree.map((n, k) => ({ ...n, i: `r${tree.length - k}` }));

/** 20 elements: the add-patient page's 14 controls and 6 structural nodes. */
const twenty: SemanticNodeV3[] = [
  ...newSearchInteractive,
  { i: 'n1', r: 'heading', n: 'Patients' },
  { i: 'n2', r: 'region', n: 'Patient search' },
  { i: 'n5', r: 'table', n: 'Patients' },
  { i: 'n11', r: 'region', n: 'Add new patient' },
  { i: 'n12', r: 'heading', n: 'Add new patient' },
  { i: 'n13', r: 'form', n: 'Add new patient' },
];

const rename = (tree: readonly SemanticNodeV3[], from: string, to: string) =>
  tree.map((n) => (n.n === from ? { ...n, n: to } : n));

describe('elementSignature', () => {
  it('ignores the id, value, states, occlusion and geometry', () => {
    const plain: SemanticNodeV3 = { i: '12', r: 'inp', n: 'First name' };
    const worked: SemanticNodeV3 = {
      i: 'x-99',
      r: 'inp',
      n: 'First name',
      v: 'Jas',
      s: 'focused,invalid',
      occ: true,
      xy: [10, 20],
      box: [0, 0, 100, 20],
    };
    expect(elementSignature(worked)).toBe(elementSignature(plain));
    expect(elementSignature(plain)).toBe('inp:first name');
  });

  it('normalises case, accents, punctuation, counters and ARIA role names', () => {
    expect(elementSignature({ i: '1', r: 'button', n: 'Patients ▾' })).toBe(
      elementSignature({ i: '2', r: 'btn', n: 'patients' }),
    );
    expect(elementSignature({ i: '1', r: 'link', n: 'Inbox (3)' })).toBe(
      elementSignature({ i: '2', r: 'link', n: 'Inbox (12)' }),
    );
    expect(elementSignature({ i: '1', r: 'btn', n: 'Café…' })).toBe('btn:cafe');
  });

  it('keeps role and name apart: a Save link is not a Save button', () => {
    expect(elementSignature({ i: '1', r: 'btn', n: 'Save' })).not.toBe(
      elementSignature({ i: '1', r: 'link', n: 'Save' }),
    );
    expect(elementSignature({ i: '1', r: 'btn', n: 'Save' })).not.toBe(
      elementSignature({ i: '1', r: 'btn', n: 'Save patient' }),
    );
  });
});

describe('isInteractiveRole', () => {
  it('knows the contract codes, the pass-throughs and ARIA names', () => {
    for (const r of ['btn', 'inp', 'link', 'chk', 'sel', 'radio', 'file', 'treeitem', 'button'])
      expect(isInteractiveRole(r)).toBe(true);
    for (const r of ['heading', 'navigation', 'table', 'dialog', 'text', 'listitem'])
      expect(isInteractiveRole(r)).toBe(false);
  });
});

describe('domSimilarity', () => {
  it('scores identical trees 1', () => {
    expect(domSimilarity(newSearchRich, newSearchRich)).toEqual({
      score: 1,
      interactive: 1,
      structural: 1,
    });
  });

  it('is cosmetic-blind: typed values, re-numbered and re-ordered ids still score 1', () => {
    const typed = newSearchRich.map((n) =>
      n.n === 'First name' ? { ...n, v: 'Jas' } : n.n === 'Sex' ? { ...n, v: 'Female' } : n,
    );
    expect(domSimilarity(newSearchRich, typed).score).toBe(1);
    expect(domSimilarity(newSearchRich, renumber(newSearchRich).reverse()).score).toBe(1);
  });

  it('ignores states and occlusion (an expanded menu button, a covered form)', () => {
    const covered = newSearchRich.map((n) =>
      n.n === 'Patients' ? { ...n, s: 'expanded' } : { ...n, occ: true },
    );
    expect(domSimilarity(newSearchRich, covered).score).toBe(1);
  });

  it('scores one renamed button out of 20 elements above 0.9', () => {
    expect(twenty).toHaveLength(20);
    const renamed = rename(twenty, 'Save', 'Save patient');
    expect(domSimilarity(twenty, renamed).score).toBeGreaterThan(0.9);
    // Trees as the extension sends them (all interactive): still above 0.9 at 20 elements.
    const controls: SemanticNodeV3[] = [
      ...newSearchInteractive,
      ...['Print', 'Export', 'Help', 'Settings', 'Log out', 'Messages'].map(
        (n, k): SemanticNodeV3 => ({ i: `x${k}`, r: 'link', n }),
      ),
    ];
    expect(controls).toHaveLength(20);
    const c = domSimilarity(controls, rename(controls, 'Save', 'Submit'));
    expect(c.score).toBeGreaterThan(0.9);
  });

  it('scores the EMR dashboard against the add-patient page below 0.7', () => {
    const rich = domSimilarity(dashboardRich, newSearchRich);
    expect(rich.score).toBeLessThan(0.7);
    expect(rich.structural).toBeLessThan(0.3);
    expect(domSimilarity(dashboardInteractive, newSearchInteractive).score).toBeLessThan(0.7);
  });

  it('scores the patient search alone against the add-patient form alone below 0.7', () => {
    const search = newSearchRich.filter((n) =>
      ['Search patients', 'Search', 'Patient search', 'Patients', 'Patient ID', 'Name'].includes(
        n.n ?? '',
      ),
    );
    const form = newSearchRich.filter((n) =>
      ['First name', 'Last name', 'Sex', 'Save', 'Clear form', 'Add new patient'].includes(
        n.n ?? '',
      ),
    );
    expect(domSimilarity(search, form).score).toBeLessThan(0.7);
  });

  it('keeps the dashboard the same page when the Patients menu opens', () => {
    const open = [...dashboardRich, ...emrPatientsMenu];
    expect(domSimilarity(dashboardRich, open).score).toBeGreaterThan(0.85);
  });

  it('weights interactive changes at most 0.4 and structural ones at most 0.6', () => {
    const structure = dashboardRich.filter((n) => !isInteractiveRole(n.r));
    const other: SemanticNodeV3[] = [{ i: 'z', r: 'btn', n: 'Something else' }];
    const interactiveOnly = domSimilarity(
      [...dashboardInteractive, ...structure],
      [...other, ...structure],
    );
    expect(interactiveOnly).toMatchObject({ interactive: 0, structural: 1 });
    expect(interactiveOnly.score).toBeCloseTo(0.6);
    const structuralOnly = domSimilarity(dashboardRich, [
      ...dashboardInteractive,
      { i: 'q', r: 'heading', n: 'Elsewhere' },
    ]);
    expect(structuralOnly.score).toBeCloseTo(0.4);
  });

  it('never moves more than 0.4 for any interactive-only change (property)', () => {
    const structure = newSearchRich.filter((n) => !isInteractiveRole(n.r));
    const control = fc.record({
      i: fc.constant('x'),
      r: fc.constantFrom('btn', 'inp', 'link', 'sel', 'chk'),
      n: fc.string({ maxLength: 12 }),
    });
    fc.assert(
      fc.property(
        fc.array(control, { maxLength: 30 }),
        fc.array(control, { maxLength: 30 }),
        (a, b) => {
          const score = domSimilarity([...a, ...structure], [...b, ...structure]).score;
          return score >= 0.6 - 1e-9 && score <= 1;
        },
      ),
    );
  });

  it('renormalises over the parts present: all-interactive trees score their Jaccard', () => {
    const open = [...dashboardInteractive, ...emrPatientsMenu];
    const r = domSimilarity(dashboardInteractive, open);
    expect(r.structural).toBe(1);
    expect(r.interactive).toBeCloseTo(5 / 7);
    expect(r.score).toBeCloseTo(5 / 7);
    const headingsOnly = domSimilarity(
      [{ i: '1', r: 'heading', n: 'A' }],
      [
        { i: '1', r: 'heading', n: 'A' },
        { i: '2', r: 'heading', n: 'B' },
      ],
    );
    expect(headingsOnly.score).toBeCloseTo(0.5);
  });

  it('counts structure that only one side has: a dialog appearing over controls', () => {
    const dialog = [...dashboardInteractive, { i: 'dlg', r: 'dialog', n: 'Session expiring' }];
    const r = domSimilarity(dashboardInteractive, dialog);
    expect(r).toMatchObject({ interactive: 1, structural: 0 });
    expect(r.score).toBeCloseTo(0.4);
  });

  it('scores two empty trees 1 and an empty tree against a page 0', () => {
    expect(domSimilarity([], [])).toEqual({ score: 1, interactive: 1, structural: 1 });
    expect(domSimilarity([], dashboardRich).score).toBe(0);
    expect(domSimilarity(newSearchInteractive, []).score).toBe(0);
  });

  it('ignores live regions: a success message after Save is not a new page', () => {
    const saved = [
      ...newSearchRich,
      { i: 'ok', r: 'status', n: 'Patient Jas Smith saved successfully.' },
      { i: 'err', r: 'alert', n: 'First name is required.' },
    ];
    expect(domSimilarity(newSearchRich, saved).score).toBe(1);
  });

  it('compares sets: 3 or 30 "Edit" buttons support the same steps', () => {
    const rows = (k: number) =>
      Array.from({ length: k }, (_, j): SemanticNodeV3 => ({ i: `e${j}`, r: 'btn', n: 'Edit' }));
    expect(
      domSimilarity([...dashboardInteractive, ...rows(3)], [...dashboardInteractive, ...rows(30)])
        .score,
    ).toBe(1);
  });

  it('treats updated counters as cosmetic', () => {
    const more = dashboardRich.map((n) =>
      n.n === 'Unread messages: 2' ? { ...n, n: 'Unread messages: 3' } : n,
    );
    expect(domSimilarity(dashboardRich, more).score).toBe(1);
  });

  it('is symmetric', () => {
    const ab = domSimilarity(dashboardRich, newSearchRich);
    const ba = domSimilarity(newSearchRich, dashboardRich);
    expect(ab.score).toBeCloseTo(ba.score, 12);
  });
});

describe('urlPath', () => {
  it('keeps origin and path, drops query and hash', () => {
    expect(urlPath('https://emr.test/emr/patients/new?q=Jas#results')).toBe(
      'https://emr.test/emr/patients/new',
    );
    expect(urlPath('http://emr.test/emr/')).not.toBe(urlPath('https://emr.test/emr/'));
    expect(urlPath('/emr/patients?q=1')).toBe('/emr/patients');
  });
});

describe('replanTrigger', () => {
  const base = 'https://emr.test/emr/patients/new';

  it('triggers on a URL path change even when the DOM looks the same', () => {
    expect(
      replanTrigger({
        previousUrl: 'https://emr.test/emr/',
        url: base,
        before: newSearchRich,
        after: newSearchRich,
      }),
    ).toEqual({ replan: true, reason: 'url_path_changed', similarity: 1 });
  });

  it('does not trigger on a query or hash change of the same view', () => {
    for (const url of [`${base}?q=Jas`, `${base}#add-heading`]) {
      expect(
        replanTrigger({ previousUrl: base, url, before: newSearchRich, after: newSearchRich }),
      ).toEqual({ replan: false, reason: null, similarity: 1 });
    }
  });

  it('triggers on a DOM change under the same path (a client-side re-render)', () => {
    const r = replanTrigger({
      previousUrl: base,
      url: base,
      before: dashboardRich,
      after: newSearchRich,
    });
    expect(r.replan).toBe(true);
    expect(r.reason).toBe('dom_changed');
    expect(r.similarity).toBeLessThan(0.7);
  });

  it('does not trigger on a cosmetic change (typed value, new ids)', () => {
    const typed = renumber(newSearchRich).map((n) =>
      n.n === 'First name' ? { ...n, v: 'Jas' } : n,
    );
    expect(
      replanTrigger({ previousUrl: base, url: base, before: newSearchRich, after: typed }),
    ).toEqual({ replan: false, reason: null, similarity: 1 });
  });

  it('without a previous URL it still checks the DOM', () => {
    const same = replanTrigger({ previousUrl: null, url: base, before: twenty, after: twenty });
    expect(same.replan).toBe(false);
    const changed = replanTrigger({
      previousUrl: null,
      url: base,
      before: dashboardInteractive,
      after: newSearchInteractive,
    });
    expect(changed.reason).toBe('dom_changed');
  });

  it('honours a custom threshold and rejects one outside [0, 1]', () => {
    const open = [...dashboardInteractive, ...emrPatientsMenu]; // 5/7 ≈ 0.714
    const input = { previousUrl: base, url: base, before: dashboardInteractive, after: open };
    expect(replanTrigger(input).replan).toBe(false);
    expect(replanTrigger({ ...input, threshold: 0.8 }).reason).toBe('dom_changed');
    expect(() => replanTrigger({ ...input, threshold: 70 })).toThrow(RangeError);
  });
});
