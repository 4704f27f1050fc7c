import { describe, expect, it } from 'vitest';
import { parse, squash, textOf } from './dom';
import { preClean } from './pre-clean';

const cleaned = (body: string): string => {
  const doc = parse(`<!doctype html><html><body>${body}</body></html>`);
  preClean(doc, { preserveHidden: true });
  return squash(textOf(doc));
};

const departments = Array.from({ length: 80 }, (_, n) => `<a href="/c/${n}">Department ${n}</a>`);
const prose = 'A solid oak desk with two drawers, 120 cm wide, oiled by hand. '.repeat(3);

describe('preClean', () => {
  it('drops site chrome that holds less than half of the page text', () => {
    const text = cleaned(`<nav><a href="/">Home</a> <a href="/shop">Shop</a></nav><p>${prose}</p>`);
    expect(text).not.toContain('Home');
    expect(text).toContain('A solid oak desk');
  });

  it('keeps chrome holding most of the page text when it is prose: it is the page', () => {
    const text = cleaned(`<div class="sidebar-layout"><p>${prose}${prose}</p></div><p>Short.</p>`);
    expect(text).toContain('A solid oak desk');
  });

  it('drops a navigation menu whatever share of the text it holds (a mega menu)', () => {
    const text = cleaned(
      `<nav><div>${departments.join('')}</div></nav><main><p>${prose}</p></main>`,
    );
    expect(text).not.toContain('Department 7');
    expect(text).toContain('A solid oak desk');
  });

  it('reads a class word that says what its element holds or switches on as a modifier', () => {
    const text = cleaned(
      `<div class="layout modal-enabled"><p>${prose}</p></div>` +
        `<ul class="grid has-menu hide-river-ad"><li>Oak desk, 120 cm</li></ul>` +
        `<div class="modal-open"><p>Sign in to save.</p></div>` +
        `<div class="is-popup"><p>Join our list.</p></div><p>${prose}</p>`,
    );
    expect(text).toContain('A solid oak desk');
    expect(text).toContain('Oak desk, 120 cm');
    expect(text).not.toContain('Sign in to save');
    expect(text).not.toContain('Join our list');
  });
});
