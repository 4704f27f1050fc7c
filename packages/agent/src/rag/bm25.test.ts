import { describe, expect, it } from 'vitest';
import { bm25Scores, stem, tokenize } from './bm25';

describe('tokenize', () => {
  it('lowercases, drops stopwords and stems lightly', () => {
    expect(tokenize('Adding the new Patients, clicked Save!')).toEqual([
      'add',
      'new',
      'patient',
      'click',
      'save',
    ]);
    expect(tokenize('Überweisung für 2024')).toEqual(['überweisung', 'für', '2024']);
    expect(['policies', 'boxes', 'class', 'status', 'running', 'stopped'].map(stem)).toEqual([
      'policy',
      'box',
      'class',
      'status',
      'run',
      'stop',
    ]);
  });
});

describe('bm25Scores', () => {
  it('rewards rarer terms and more matches, and normalises for length', () => {
    const docs = [
      'save the form',
      'save button',
      'save form export form',
      'save the form ' + 'filler words here '.repeat(20),
      'nothing relevant',
    ];
    const [a, b, c, d, e] = bm25Scores('save form', docs);
    expect(e).toBe(0);
    expect(a).toBeGreaterThan(b ?? 0);
    expect(c).toBeGreaterThan(a ?? 0);
    expect(a).toBeGreaterThan(d ?? 0);
  });

  it('scores zero for an empty query', () => {
    expect(bm25Scores('the of', ['the of'])).toEqual([0]);
  });
});
