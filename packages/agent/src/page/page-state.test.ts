import { InteractRequest, parseAction, type ClickAtAction } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { pageWith } from '../testing/state';
import { capName, clickAtProblem, describePage, pageStateFrom } from './page-state';

const request = (extra: Record<string, unknown>) =>
  InteractRequest.parse({ url: 'https://shop.example/', query: 'order', ...extra });

describe('pageStateFrom: richer captures', () => {
  it('keeps the screenshot as an image, the viewport and what else the viewport shows', () => {
    const page = pageStateFrom(
      request({
        domMode: 'hybrid',
        interactiveTree: [],
        screenshot: 'data:image/png;base64,iVBORw0KGgo=',
        viewport: { width: 1280, height: 800 },
        viewportContent: { canvases: 1, images: 0, textLength: 40 },
      }),
    );
    expect(page).toMatchObject({
      domMode: 'hybrid',
      screenshot: { mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      viewport: { width: 1280, height: 800 },
      viewportContent: { canvases: 1, images: 0, textLength: 40 },
      html: null,
    });
    // A bare base64 screenshot is the JPEG the extension sends.
    expect(
      pageStateFrom(request({ domMode: 'hybrid', screenshot: '/9j/4AAQ' })).screenshot,
    ).toEqual({ mimeType: 'image/jpeg', data: '/9j/4AAQ' });
  });

  it('keeps the full DOM only as its bounded digest', () => {
    const dom = `<html><body><script>var secret = 1;</script><p>Hello</p>${'<div>x</div>'.repeat(20_000)}</body></html>`;
    const page = pageStateFrom(request({ domMode: 'full', dom }));
    expect(page.html?.startsWith('<p>Hello</p>')).toBe(true);
    expect(page.html).not.toContain('secret');
    expect(page.html?.length).toBeLessThan(12_100);
    expect(page.screenshot).toBeUndefined();
  });
});

describe('describePage with a capture', () => {
  const page = pageWith({
    tree: [{ i: '4', r: 'btn', n: 'Help', xy: [1200, 40] }],
    html: '<canvas id="shop"></canvas>',
    screenshot: { mimeType: 'image/jpeg', data: 'AAAA' },
    viewport: { width: 1280, height: 800 },
  });

  it('adds the HTML inside the page fence, the points and the screenshot note after it', () => {
    const text = describePage(page, { capture: true });
    const fenced = /<page_content untrusted="true">\n([\s\S]*)\n<\/page_content>/.exec(text)?.[1];
    expect(fenced).toContain('4 btn "Help" @1200,40');
    expect(fenced).toContain(
      'The page\'s HTML (cleaned and cut; only the ids listed above can be clicked):\n<canvas id="shop"></canvas>',
    );
    expect(text.split('</page_content>')[1]).toContain(
      'Screenshot: attached, the visible viewport of 1280×800 CSS pixels.',
    );
  });

  it('shows none of it to prompts that do not ask', () => {
    const text = describePage(page);
    expect(text).toContain('4 btn "Help"\n');
    expect(text).not.toContain('@1200');
    expect(text).not.toContain('<canvas');
    expect(text).not.toContain('Screenshot');
  });
});

describe('clickAtProblem', () => {
  const at = (x: number, y: number) => parseAction(`clickAt(${x}, ${y})`) as ClickAtAction;
  const seen = {
    screenshot: { mimeType: 'image/jpeg' as const, data: 'AAAA' },
    viewport: { width: 1280, height: 800 },
  };

  it('allows a point of the screenshot the model saw', () => {
    expect(clickAtProblem(at(640, 400), seen)).toBeNull();
  });

  it('refuses a point with no screenshot behind it, or outside the viewport', () => {
    expect(clickAtProblem(at(10, 10), pageWith())).toBe(
      'clickAt needs a screenshot of this page (hybrid mode); use an element id instead',
    );
    expect(clickAtProblem(at(1280, 10), seen)).toBe(
      'the point (1280, 10) is outside the viewport (1280×800)',
    );
  });
});

describe('element names cut for a prompt', () => {
  it('cuts at a word boundary, marks the cut, keeps short names whole', () => {
    expect(capName('Save', 80)).toBe('Save');
    const long = `Keep my subscription ${'and the newsletter '.repeat(4)}Unsubscribe`;
    const cut = capName(long, 80);
    expect(cut.endsWith(' …(cut)')).toBe(true);
    expect(cut).not.toMatch(/Unsub/);
    const visible = cut.replace(' …(cut)', '');
    expect(long.startsWith(visible)).toBe(true);
    // The visible part ends with a whole word of the name.
    expect(long.split(/\s+/)).toContain(visible.split(/\s+/).at(-1));
  });

  it('never splits a surrogate pair when a name has no spaces', () => {
    const cut = capName('💳'.repeat(60), 80);
    expect(cut.replace(' …(cut)', '')).toBe('💳'.repeat(40));
  });
});
