import { describe, expect, it } from 'vitest';
import { messageKindOfClass, messageKindOfText } from './sentinel-classes';

describe('message classes and wording', () => {
  it('recognises message classes by token, not by substring', () => {
    expect(messageKindOfClass('alert alert-danger')).toBe('error');
    expect(messageKindOfClass('invalid-feedback')).toBe('error');
    expect(messageKindOfClass('form-error')).toBe('error');
    expect(messageKindOfClass('has-error')).toBe('error');
    expect(messageKindOfClass('toast toast-success')).toBe('success');
    expect(messageKindOfClass('success')).toBe('success');
    expect(messageKindOfClass('error-boundary')).toBeUndefined();
    expect(messageKindOfClass('btn btn-danger')).toBeUndefined();
    expect(messageKindOfClass('text-success')).toBeUndefined();
    expect(messageKindOfClass('card')).toBeUndefined();
  });

  it('classifies short messages by their words', () => {
    expect(messageKindOfText('Patient saved successfully')).toBe('success');
    expect(messageKindOfText('Could not save the record')).toBe('error');
    expect(messageKindOfText('Email is required')).toBe('error');
    expect(messageKindOfText('3 results')).toBeUndefined();
  });
});
