// Markdown for content mode: turndown with GFM tables, fenced code with the language the
// outline shows, and links/images only when asked (they cost tokens and are often noise).
// The ambient types must come with this file into every program that compiles it (the
// extension and the server typecheck this source too), and a .d.ts cannot be imported.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../types/turndown-plugin-gfm.d.ts" />
import TurndownService from 'turndown';
import { strikethrough, tables, taskListItems } from 'turndown-plugin-gfm';
import { codeLanguage } from './code-language';
import { absoluteUrl } from './links';

export interface MarkdownOptions {
  includeLinks: boolean;
  includeImages: boolean;
  /** Links and images are made absolute against it. */
  baseUrl: string;
}

/** Square brackets in link text and alt text would end the Markdown construct early. */
const escapeLabel = (text: string): string => text.replace(/([[\]\\])/g, '\\$1');

/** A fence longer than any backtick run in the code, so the code cannot close it. */
function fenceFor(code: string): string {
  let longest = 0;
  for (const match of code.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

export function createMarkdownConverter(options: MarkdownOptions): (el: HTMLElement) => string {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
  });
  service.use([tables, strikethrough, taskListItems]);

  service.addRule('code-block', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const code = (node.textContent ?? '').replace(/\n+$/, '');
      const fence = fenceFor(code);
      return `\n\n${fence}${codeLanguage(node) ?? ''}\n${code}\n${fence}\n\n`;
    },
  });

  service.addRule('link', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      if (!options.includeLinks) return content;
      const href = absoluteUrl(node.getAttribute('href'), options.baseUrl);
      const text = content.trim();
      if (!href || !text) return content;
      return `[${text}](${href.replace(/[()]/g, (c) => encodeURIComponent(c))})`;
    },
  });

  service.addRule('image', {
    filter: (node) => node.nodeName === 'IMG',
    replacement: (_content, node) => {
      if (!options.includeImages) return '';
      const src = absoluteUrl(node.getAttribute('src'), options.baseUrl);
      if (!src) return '';
      const alt = escapeLabel((node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim());
      return `![${alt}](${src.replace(/[()]/g, (c) => encodeURIComponent(c))})`;
    },
  });

  return (el) =>
    service
      .turndown(el)
      .replace(/\n{3,}/g, '\n\n')
      .trim();
}
