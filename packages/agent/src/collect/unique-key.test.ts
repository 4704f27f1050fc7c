// Every unique-id rule (docs/specs.md, "Unique ID Inference"), in priority order.
import { describe, expect, it } from 'vitest';
import { inferUniqueKey, namesAnotherItem } from './unique-key';

describe('inferUniqueKey — job', () => {
  const full = {
    linkedinJobId: '3901',
    jobId: 'J-1',
    id: 77,
    url: 'https://jobs.example/j/1',
    title: 'Engineer',
    company: 'Acme',
  };

  it('primary key: linkedinJobId, as linkedin:<id>', () => {
    expect(inferUniqueKey('job', full)).toBe('linkedin:3901');
    expect(inferUniqueKey('job', { linkedinJobId: 3901 })).toBe('linkedin:3901');
  });

  it('fallbacks in order: jobId, id, url, then title@company', () => {
    const { linkedinJobId: _l, ...noLinkedin } = full;
    expect(inferUniqueKey('job', noLinkedin)).toBe('job:J-1');
    const { jobId: _j, ...noJobId } = noLinkedin;
    expect(inferUniqueKey('job', noJobId)).toBe('77');
    const { id: _i, ...noId } = noJobId;
    expect(inferUniqueKey('job', noId)).toBe('https://jobs.example/j/1');
    const { url: _u, ...titleAndCompany } = noId;
    expect(inferUniqueKey('job', titleAndCompany)).toBe('engineer@acme');
  });

  it('title@company is lower-cased and whitespace-normalized, and needs both parts', () => {
    expect(inferUniqueKey('job', { title: '  Senior\n Engineer ', company: 'ACME  Corp' })).toBe(
      'senior engineer@acme corp',
    );
    expect(inferUniqueKey('job', { title: 'Engineer' })).toBeNull();
    expect(inferUniqueKey('job', { company: 'Acme' })).toBeNull();
  });

  it('title@company is a job rule only', () => {
    expect(inferUniqueKey('product', { title: 'Engineer', company: 'Acme' })).toBeNull();
    expect(inferUniqueKey('default', { title: 'Engineer', company: 'Acme' })).toBeNull();
  });
});

describe('inferUniqueKey — product', () => {
  it('primary key id, then sku (as sku:<sku>), then url', () => {
    expect(inferUniqueKey('product', { id: 'P-9', sku: 'SKU-1', url: 'https://s.example/p' })).toBe(
      'P-9',
    );
    expect(inferUniqueKey('product', { sku: 'SKU-1', url: 'https://s.example/p' })).toBe(
      'sku:SKU-1',
    );
    expect(inferUniqueKey('product', { url: 'https://s.example/p', name: 'Lamp' })).toBe(
      'https://s.example/p',
    );
    expect(inferUniqueKey('product', { name: 'Lamp' })).toBeNull();
  });
});

describe('inferUniqueKey — any other type', () => {
  it('primary key id, then url; job- and product-only fields are ignored', () => {
    expect(inferUniqueKey('article', { id: 5, url: 'https://n.example/a' })).toBe('5');
    expect(inferUniqueKey('article', { url: 'https://n.example/a' })).toBe('https://n.example/a');
    expect(inferUniqueKey('article', { jobId: 'J-1', sku: 'S', linkedinJobId: '1' })).toBeNull();
  });

  it('no inferable key: null (duplicates allowed)', () => {
    expect(inferUniqueKey('default', { name: 'Anything' })).toBeNull();
  });
});

describe('inferUniqueKey — what counts as an id', () => {
  it('trims strings and skips blank ones, falling through to the next key', () => {
    expect(inferUniqueKey('job', { jobId: '  J-2 ', title: 'x', company: 'y' })).toBe('job:J-2');
    expect(inferUniqueKey('job', { jobId: '   ', title: 'x', company: 'y' })).toBe('x@y');
  });

  it('accepts 0 but not objects, booleans, NaN or null', () => {
    expect(inferUniqueKey('default', { id: 0 })).toBe('0');
    for (const id of [{ v: 1 }, [1], true, Number.NaN, null]) {
      expect(inferUniqueKey('default', { id, url: 'u' }), JSON.stringify(id)).toBe('u');
    }
  });
});

describe('namesAnotherItem', () => {
  it('tells another item by a plainly different title or name, whatever the case and spacing', () => {
    expect(namesAnotherItem({ title: 'Data Engineer' }, { title: 'Night Nurse' })).toBe(true);
    expect(namesAnotherItem({ name: 'Oak chair', id: 1 }, { name: 'Pine desk', id: 1 })).toBe(true);
    expect(namesAnotherItem({ title: 'Data Engineer' }, { title: ' data  ENGINEER ' })).toBe(false);
  });

  it('keeps a repeat a duplicate: a name within the other, or a name missing on either side', () => {
    expect(
      namesAnotherItem({ title: 'Data Engineer' }, { title: 'Data Engineer (reposted)' }),
    ).toBe(false);
    expect(namesAnotherItem({ title: 'Data Engineer' }, { jobId: 'J-1' })).toBe(false);
    expect(namesAnotherItem({ title: 7 }, { title: { text: 'x' } })).toBe(false);
  });
});
