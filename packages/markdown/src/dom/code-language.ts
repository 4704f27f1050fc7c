// The language of a code block, from the conventions highlighters and Markdown renderers use:
// class="language-js" / "lang-js" (on <pre> or its <code>), highlight-source-js (GitHub),
// "brush: js" (SyntaxHighlighter), data-lang / data-language.
const CLASS_PATTERNS = [
  /(?:^|\s)(?:language|lang)-([\w+#-]+)/i,
  /(?:^|\s)highlight-(?:source-)?([\w+#-]+)/i,
  /brush:\s*([\w+#-]+)/i,
];

const LANGUAGE = /^[a-z0-9][a-z0-9+#-]{0,19}$/;
const NOT_LANGUAGES = new Set(['none', 'text', 'plain', 'plaintext', 'nohighlight', 'default']);

function fromElement(el: Element): string | undefined {
  const data = el.getAttribute('data-lang') ?? el.getAttribute('data-language');
  if (data) return data;
  const cls = el.getAttribute('class') ?? '';
  for (const pattern of CLASS_PATTERNS) {
    const match = pattern.exec(cls);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

export function codeLanguage(pre: Element): string | undefined {
  const code = pre.querySelector('code');
  const raw = fromElement(pre) ?? (code ? fromElement(code) : undefined);
  const lang = raw?.toLowerCase();
  return lang && LANGUAGE.test(lang) && !NOT_LANGUAGES.has(lang) ? lang : undefined;
}

/** Lines of a code block's text, without the blank ones at the ends. */
export function codeLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length > 0 && (lines[0] as string).trim() === '') lines.shift();
  while (lines.length > 0 && (lines[lines.length - 1] as string).trim() === '') lines.pop();
  return lines;
}
