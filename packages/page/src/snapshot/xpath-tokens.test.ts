import { describe, expect, it } from 'vitest';
import { isGeneratedId, isUtilityClass, semanticClassOf, semanticIdOf } from './xpath-tokens';

describe('isGeneratedId', () => {
  it.each([
    ':r1:',
    ':R2d6:',
    'ember123',
    'react-select-3-input',
    'radix-:r4:',
    'headlessui-menu-button-7',
    'mui-12345',
    '3f2a9c1e-8b7d-4c6e-9a1b-2c3d4e5f6a7b',
    'a3f2c9d18e',
    'post-123456',
    'comment_99821',
    'x1n2onr6',
    'aB3xYz9Q',
    'yui_3_18_1_1_1700',
    'ext-gen1234',
    'mat-input-0',
    'c12-34-56',
    '12abc',
    'main.content',
    'has space',
  ])('flags %s', (id) => {
    expect(isGeneratedId(id)).toBe(true);
  });

  it.each([
    'main',
    'content',
    'auth',
    'overview',
    'main-content',
    'sidebar_left',
    'h2-intro',
    'section3',
    'step-2',
    'toc',
    'comments',
    'getting-started',
    'installMethods',
  ])('keeps %s', (id) => {
    expect(isGeneratedId(id)).toBe(false);
  });
});

describe('isUtilityClass', () => {
  it.each([
    // Tailwind
    'p-4',
    'px-2',
    'mt-6',
    'text-lg',
    'text-gray-700',
    'bg-white',
    'flex',
    'items-center',
    'justify-between',
    'md:flex',
    'w-[32px]',
    'hover:underline',
    '!mt-0',
    'w-1/2',
    'space-y-4',
    'rounded-lg',
    'max-w-prose',
    'sr-only',
    'prose',
    // Bootstrap / Foundation / grids
    'col-md-6',
    'd-flex',
    'row',
    'container',
    'span6',
    'large-8',
    'pull-right',
    'clearfix',
    'page-wrapper',
    'docs-layout',
    'main-container',
    'row-inner',
    // State and hooks
    'is-active',
    'has-dropdown',
    'js-toggle',
    'active',
    'selected',
    // Hashed
    'css-1x2y3z',
    'css-k008qs',
    'sc-abc123',
    'sc-bdVaJa',
    '_3xYz',
    '_1a2b3c',
    'Title_root__a1B2c',
    'jsx-2789323532',
    'svelte-1kd2ygh',
    'x1n2onr6',
    'UAquKe',
    'RDZPYd',
    'AXhyEf',
    'ab',
  ])('flags %s', (cls) => {
    expect(isUtilityClass(cls)).toBe(true);
  });

  it.each([
    'content',
    'intro',
    'reviews',
    'article-body',
    'post-content',
    'entry-content',
    'site-header',
    'sidebar',
    'comment',
    'toc',
    'breadcrumbs',
    'text-body',
    'content-body',
    'list-item',
    'card',
    'product-title',
    'article__body',
    'card--featured',
    'headline',
    'nav-list',
  ])('keeps %s', (cls) => {
    expect(isUtilityClass(cls)).toBe(false);
  });
});

describe('semanticClassOf / semanticIdOf', () => {
  it('picks the first class that names content', () => {
    expect(semanticClassOf('flex p-4 css-1x2y3z post-content entry')).toBe('post-content');
    expect(semanticClassOf('  mt-2   intro ')).toBe('intro');
  });

  it('answers undefined when every class is utility or there is none', () => {
    expect(semanticClassOf('flex items-center gap-2')).toBeUndefined();
    expect(semanticClassOf('')).toBeUndefined();
    expect(semanticClassOf(null)).toBeUndefined();
  });

  it('keeps hand-written ids only', () => {
    expect(semanticIdOf('overview')).toBe('overview');
    expect(semanticIdOf(':r3:')).toBeUndefined();
    expect(semanticIdOf(null)).toBeUndefined();
  });
});
