// What a piece of outbound text can carry once decoded: a model that obeys a page can
// hide an off-site address or a patient's number in a URL as %-escapes, in base64, in full-width
// digits or spelled out with spaces. Every outbound check (a navigate URL and the URLs inside it,
// typed text, the final answer, a search query) reads the text in all the forms it decodes to,
// so hiding is no way out. Bounded: untrusted text is decoded at most a few levels deep, into a
// bounded number of forms, from a bounded length.

/** Levels of decoding (base64 inside %-escapes inside a query…). */
const MAX_DEPTH = 3;
/** Forms kept in all: each decode can only add, so this bounds the work. */
const MAX_FORMS = 64;
/** Characters of one text that are decoded at all; the rest is read as it is. */
const MAX_DECODED_CHARS = 16_384;

// A base64 or base64url run long enough to hide something (8 characters → 6 bytes).
const BASE64_RUN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;

/** Percent-decoding that never throws: malformed escapes are kept as they are. */
function percentDecoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text.replace(/(%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** Text a base64 run decodes to, when it is text people could read; null otherwise. */
function base64Text(run: string): string | null {
  const standard = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return null;
  let binary: string;
  try {
    // atob, not Buffer: the extension's service worker reads these checks too.
    binary = atob(standard);
  } catch {
    return null;
  }
  if (binary.length < 4) return null;
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  // Mostly printable, no replacement characters: a real hidden text, not random bytes.
  const printable = text.replace(/[^\p{L}\p{N}\p{P}\p{S}\p{Zs}]/gu, '').length;
  return !text.includes('\uFFFD') && printable >= text.length * 0.9 ? text : null;
}

const htmlEntityDecoded = (text: string): string =>
  text
    .replace(/&#x([0-9a-f]{1,6});?/gi, (_, hex: string) => safeCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d{1,7});?/g, (_, dec: string) => safeCodePoint(Number(dec)));

const safeCodePoint = (code: number): string =>
  code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';

/**
 * `text` and every distinct form it decodes to: Unicode-compatibility folded (full-width
 * digits, ligatures), %-decoded, HTML-entity decoded, and the text of each base64 run in it,
 * repeatedly. The first form is `text` itself.
 */
export function decodedForms(text: string): string[] {
  const forms = [text];
  const seen = new Set(forms);
  const add = (form: string) => {
    if (forms.length >= MAX_FORMS || seen.has(form)) return false;
    seen.add(form);
    forms.push(form);
    return true;
  };
  let frontier = [text];
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const form of frontier) {
      const head = form.slice(0, MAX_DECODED_CHARS);
      const candidates = [head.normalize('NFKC'), percentDecoded(head), htmlEntityDecoded(head)];
      for (const run of head.match(BASE64_RUN) ?? []) {
        const decoded = base64Text(run);
        if (decoded !== null) candidates.push(decoded);
      }
      for (const candidate of candidates) if (add(candidate)) next.push(candidate);
    }
    frontier = next;
  }
  return forms;
}

// An absolute http(s) address, or a protocol-relative one where a value starts with it.
// Parentheses are part of addresses ("?d=(555)…"); prose's closing ones are trimmed below.
const URL_IN_TEXT = /(?:https?:)?\/\/[^\s"'<>[\]{}\\^`|]+/gi;

/** A match without the punctuation prose puts after an address ("(see https://x.example)."). */
function trimmed(match: string): string {
  let out = match.replace(/[.,;:!?]+$/, '');
  while (out.endsWith(')') && (out.match(/\)/g) ?? []).length > (out.match(/\(/g) ?? []).length)
    out = out.slice(0, -1).replace(/[.,;:!?]+$/, '');
  return out;
}

/** Every http(s) URL written in `text`, in any of its decoded forms. */
export function urlsIn(text: string): string[] {
  const out = new Set<string>();
  for (const form of decodedForms(text)) {
    for (const found of form.match(URL_IN_TEXT) ?? []) {
      const match = trimmed(found);
      const absolute = match.startsWith('//') ? `https:${match}` : match;
      try {
        out.add(new URL(absolute).href);
      } catch {
        // Not an address after all ("//" inside prose).
      }
    }
  }
  return [...out];
}

/**
 * The addresses a URL carries besides its own: in its path, query and fragment, decoded (the
 * `u=` of a redirector, `#next=…`, base64 `?r=aHR0cHM6Ly8…`), and the ones inside those.
 */
export function embeddedUrls(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const own = parsed.href;
  const found = new Set<string>();
  let frontier = [`${parsed.pathname}${parsed.search}${parsed.hash}`];
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const part of frontier) {
      for (const inner of urlsIn(part)) {
        if (inner === own || found.has(inner)) continue;
        found.add(inner);
        const innerUrl = new URL(inner);
        next.push(`${innerUrl.pathname}${innerUrl.search}${innerUrl.hash}`);
      }
    }
    frontier = next;
  }
  return [...found];
}
