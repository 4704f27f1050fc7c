import { describe, expect, it } from 'vitest';
import { nodeDeps, stateWith } from '../testing/state';
import type { WebSearch } from '../web-search/port';
import { routeMissingInfo } from './missing-info';

const searching: WebSearch = { enabled: true, search: () => Promise.resolve({ results: [] }) };
const fact = {
  what: 'VAT number of Acme',
  kind: 'EXTERNAL_KNOWLEDGE' as const,
  searchQuery: 'Acme VAT',
};
const secret = { what: 'middle name', kind: 'PRIVATE_DATA' as const, searchQuery: null };

describe('routeMissingInfo', () => {
  it('searches a public fact once, when web search is configured', () => {
    expect(routeMissingInfo(nodeDeps({ webSearch: searching }), stateWith(), [fact], 't')).toEqual({
      kind: 'search',
      query: 'Acme VAT',
    });
    // The results are already in the prompt: the user is asked instead of searching again.
    const searched = stateWith({ webSearchSummary: 'nothing useful' });
    expect(routeMissingInfo(nodeDeps({ webSearch: searching }), searched, [fact], 't').kind).toBe(
      'ask',
    );
    // Without web search, a public fact is asked too.
    expect(routeMissingInfo(nodeDeps(), stateWith(), [fact], 't').kind).toBe('ask');
  });

  it('asks the user for private data, naming every missing value', () => {
    const route = routeMissingInfo(
      nodeDeps({ webSearch: searching }),
      stateWith(),
      [secret, fact],
      't',
    );
    if (route.kind !== 'ask') throw new Error('expected a question');
    expect(route.update.outcome).toEqual({
      kind: 'ask_user',
      message: 'I need the following information to continue: middle name, VAT number of Acme.',
      missingInformation: ['middle name', 'VAT number of Acme'],
      thought: 't',
    });
    expect(route.update.question).toEqual({
      askedBy: 'action_generation',
      message: 'I need the following information to continue: middle name, VAT number of Acme.',
    });
  });

  it('refuses to invent once the question limit is reached', () => {
    const route = routeMissingInfo(nodeDeps(), stateWith({ questionsAsked: 3 }), [secret], 't');
    expect(route).toMatchObject({ kind: 'refuse' });
    if (route.kind === 'refuse') expect(route.reason).toContain('never invent it');
  });
});
