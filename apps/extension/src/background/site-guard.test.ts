import { describe, expect, it } from 'vitest';
import { escapedTo, numbered, siteRules } from './site-guard';

describe('the site guard', () => {
  it('blocks the tab’s top-level navigations except to the task’s sites, scheme by scheme', () => {
    const rules = numbered(
      siteRules(2_024_717_729, ['127.0.0.1:4000', 'app.example']),
      new Set([1, 3]),
    );
    expect(rules[0]).toEqual({
      id: 2,
      priority: 1,
      action: { type: 'block' },
      condition: { tabIds: [2_024_717_729], resourceTypes: ['main_frame'] },
    });
    // Ids are small integers other rules do not use, whatever the tab's id.
    expect(
      rules.slice(1).map((r) => [r.id, r.priority, r.action.type, r.condition.urlFilter]),
    ).toEqual([
      [4, 2, 'allow', '|http://127.0.0.1:4000/'],
      [5, 2, 'allow', '|https://127.0.0.1:4000/'],
      [6, 2, 'allow', '|http://app.example/'],
      [7, 2, 'allow', '|https://app.example/'],
    ]);
  });

  it('goes back from a page outside the sites and says where it was', async () => {
    let backs = 0;
    const tabs = (url: string) => ({
      currentUrl: async () => url,
      goBack: async () => void backs++,
    });
    expect(await escapedTo(tabs('http://localhost:4000/collect?x=1'), 1, ['127.0.0.1:4000'])).toBe(
      'localhost:4000',
    );
    expect(await escapedTo(tabs('http://127.0.0.1:4000/next'), 1, ['127.0.0.1:4000'])).toBeNull();
    expect(await escapedTo(tabs('chrome://newtab/'), 1, ['127.0.0.1:4000'])).toBeNull();
    expect(await escapedTo(tabs('http://localhost:4000/'), 1, [])).toBeNull();
    expect(backs).toBe(1);
  });

  it('opens the step’s page again when back skipped it (an entry added without a gesture)', async () => {
    const history = ['about:blank', 'http://localhost:4000/collect?notes=x'];
    const opened: string[] = [];
    const tabs = {
      currentUrl: async () => history.at(-1),
      goBack: async () => void history.pop(),
      goTo: async (_tabId: number, url: string) => void opened.push(url),
    };
    const page = 'http://127.0.0.1:4000/inject/js-redirect.html';
    expect(await escapedTo(tabs, 1, ['127.0.0.1:4000'], page)).toBe('localhost:4000');
    expect(opened).toEqual([page]);
    // Back on the task's page: nothing more to do; a returnTo outside the sites is never opened.
    history.splice(0, 2, page, 'http://localhost:4000/collect');
    expect(await escapedTo(tabs, 1, ['127.0.0.1:4000'], page)).toBe('localhost:4000');
    history.splice(0, 2, 'about:blank', 'http://localhost:4000/collect');
    expect(await escapedTo(tabs, 1, ['127.0.0.1:4000'], 'http://localhost:4000/')).toBe(
      'localhost:4000',
    );
    expect(opened).toEqual([page]);
    // Back fails when Chrome skips every earlier entry: the page is opened all the same.
    const stuck = {
      currentUrl: async () => 'http://localhost:4000/collect',
      goBack: () => Promise.reject(new Error('Cannot find a next page in history.')),
      goTo: tabs.goTo,
    };
    expect(await escapedTo(stuck, 1, ['127.0.0.1:4000'], page)).toBe('localhost:4000');
    expect(opened).toEqual([page, page]);
    await expect(escapedTo(stuck, 1, ['127.0.0.1:4000'])).rejects.toThrow('next page');
  });
});
