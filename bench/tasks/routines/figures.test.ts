import { describe, expect, it } from 'vitest';
import {
  pairTargets,
  pairTotals,
  rerunsOf,
  runFigures,
  savedBy,
  variantFigures,
  variantTargets,
  type RunFigures,
  type TaskPair,
  type VersionView,
} from './figures';

const node = (actionType: string, calls: number) => ({
  actionType,
  calls,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
});

const figures = (over: Partial<RunFigures> = {}): RunFigures => ({
  success: true,
  calls: 0,
  routineCalls: 0,
  steps: 4,
  callsPerStep: 0,
  tokens: 0,
  wallMs: 1000,
  ...over,
});

const pair = (id: string, first: Partial<RunFigures>, second: Partial<RunFigures>): TaskPair => ({
  id,
  routine: { id: `r-${id}`, version: 1, goalTemplate: id },
  routineUsed: true,
  first: figures(first),
  second: figures(second),
});

describe('runFigures', () => {
  it('reads calls, steps and tokens from the record and counts the routine calls apart', () => {
    const run = runFigures({
      success: true,
      wallMs: 900,
      record: {
        llmCalls: 3,
        steps: 4,
        tokens: 1200,
        nodes: [node('ROUTINE_HEAL', 1), node('ACTION_GENERATION', 1), node('ROUTINE_RERUN', 1)],
      },
    });
    expect(run).toEqual({
      success: true,
      calls: 3,
      routineCalls: 2,
      steps: 4,
      callsPerStep: 0.75,
      tokens: 1200,
      wallMs: 900,
    });
  });

  it('is all zeros with no record, and no calls per step without a step', () => {
    const run = runFigures({ success: false, wallMs: 50, record: null });
    expect(run.calls).toBe(0);
    expect(run.callsPerStep).toBeNull();
  });
});

describe('pairTotals and pairTargets', () => {
  it('sums each side and takes the ratios over the sums', () => {
    const totals = pairTotals([
      pair(
        'a',
        { calls: 4, steps: 4, tokens: 2000, wallMs: 4000 },
        { calls: 0, steps: 4, wallMs: 1000 },
      ),
      pair(
        'b',
        { calls: 2, steps: 2, tokens: 1000, wallMs: 2000 },
        { calls: 0, steps: 2, tokens: 30, wallMs: 500 },
      ),
    ]);
    expect(totals.first).toMatchObject({ calls: 6, steps: 6, tokens: 3000, wallMs: 6000 });
    expect(totals.second).toMatchObject({ calls: 0, steps: 6, tokens: 30, wallMs: 1500 });
    expect(totals.second.callsPerStep).toBe(0);
    expect(totals.tokenRatio).toBeCloseTo(0.01);
    expect(totals.wallRatio).toBe(0.25);
    expect(pairTargets(totals).map((t) => t.met)).toEqual([true, true, true, true]);
  });

  it('misses each target on its own figure', () => {
    const totals = pairTotals([
      pair(
        'a',
        { calls: 10, steps: 10, tokens: 100, wallMs: 1000 },
        {
          success: false,
          calls: 1,
          steps: 10,
          tokens: 4,
          wallMs: 600,
        },
      ),
    ]);
    const byName = Object.fromEntries(pairTargets(totals).map((t) => [t.name, t]));
    expect(byName['second runs succeeded']).toMatchObject({ value: '0/1', met: false });
    expect(byName['second runs: model calls per step']).toMatchObject({
      value: '0.10',
      met: false,
    });
    expect(byName["second runs' tokens ÷ first runs'"]).toMatchObject({
      value: '4.0 %',
      met: false,
    });
    expect(byName["second runs' wall time ÷ first runs'"]).toMatchObject({
      value: '0.60×',
      met: false,
    });
  });

  it('has no ratio when the first runs used no tokens', () => {
    const totals = pairTotals([pair('a', { tokens: 0 }, { tokens: 0 })]);
    expect(totals.tokenRatio).toBeNull();
    expect(pairTargets(totals)[2]?.met).toBe(false);
  });
});

describe('routine versions', () => {
  const version = (over: Partial<VersionView>): VersionView => ({
    id: 'v1',
    site: '127.0.0.1:4000',
    goalTemplate: 'Add {name}',
    version: 1,
    sourceTaskId: 't1',
    runs: 0,
    ...over,
  });

  it('finds the version a task saved, and counts reruns over all versions of its routine', () => {
    const versions = [
      version({}),
      version({ id: 'v2', version: 2, sourceTaskId: 't3', runs: 2 }),
      version({ id: 'x', goalTemplate: 'Other {name}', sourceTaskId: 't2', runs: 5 }),
    ];
    expect(savedBy(versions, 't3')?.id).toBe('v2');
    expect(savedBy(versions, null)).toBeNull();
    expect(savedBy(versions, 'nope')).toBeNull();
    expect(rerunsOf(versions, versions[0] ?? null)).toBe(2);
    expect(rerunsOf(versions, null)).toBe(0);
  });
});

describe('variantFigures and variantTargets', () => {
  const heal = (run: Partial<RunFigures>, newVersion = true) =>
    variantFigures({
      id: 'emr/rename',
      expect: 'heal',
      changedSteps: 1,
      run: figures(run),
      hadRoutine: true,
      newVersion,
      reran: true,
    });

  it('a heal meets its target with one call on the changed step and a new version', () => {
    const v = heal({ calls: 1, routineCalls: 1 });
    expect(v.callsPerChangedStep).toBe(1);
    expect(v.agentCalls).toBe(0);
    expect(v.met).toBe(true);
    expect(heal({ calls: 2, routineCalls: 1 }).met).toBe(false);
    expect(heal({ calls: 1 }, false).met).toBe(false);
    expect(heal({ calls: 0, success: false }).met).toBe(false);
  });

  it('a decline needs the full agent: calls outside the routine types, none inside, no rerun', () => {
    const decline = (run: Partial<RunFigures>, reran = false) =>
      variantFigures({
        id: 'emr/staff',
        expect: 'decline',
        changedSteps: 0,
        run: figures(run),
        hadRoutine: true,
        newVersion: false,
        reran,
      });
    expect(decline({ calls: 3 })).toMatchObject({ declined: true, met: true, agentCalls: 3 });
    expect(decline({ calls: 3, routineCalls: 1 }).declined).toBe(false);
    expect(decline({ calls: 0 }).declined).toBe(false);
    expect(decline({ calls: 3 }, true).declined).toBe(false);
    expect(decline({ calls: 3, success: false }).met).toBe(false);
  });

  const rows = [
    heal({ calls: 1, routineCalls: 1 }),
    heal({ calls: 0 }),
    variantFigures({
      id: 'emr/staff',
      expect: 'decline',
      changedSteps: 0,
      run: figures({ calls: 2 }),
      hadRoutine: true,
      newVersion: false,
      reran: false,
    }),
  ];

  it('sums the heals into calls per changed step and reports the declines apart', () => {
    const targets = variantTargets(rows, true);
    expect(targets[0]).toMatchObject({ value: '2/2 (0.50 calls per changed step)', met: true });
    expect(targets[1]).toMatchObject({ value: '1/1', met: true });
  });

  it('does not count a decline when no routine reran at all', () => {
    const declines = variantTargets(rows, false)[1];
    expect(declines?.met).toBe(false);
    expect(declines?.value).toContain('proves nothing');
  });
});
