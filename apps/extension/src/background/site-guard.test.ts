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
});
