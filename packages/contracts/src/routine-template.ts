// Routine templates: text with `{name}` where a parameter's value goes. Literal
// braces are doubled, so any text, `{{secret:…}}` references included, survives a round trip.
import { ROUTINE_PARAMETER_NAME } from './routine';

/** A template's pieces: literal text, and the names of the parameters between them. */
export type TemplatePart = string | { param: string };

export const escapeTemplate = (text: string): string => text.replace(/[{}]/g, (c) => c + c);

export function renderTemplate(parts: readonly TemplatePart[]): string {
  return parts.map((p) => (typeof p === 'string' ? escapeTemplate(p) : `{${p.param}}`)).join('');
}

/** Reads a template back into its pieces; throws on a lone brace or a malformed name. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i] as string;
    if ((c === '{' || c === '}') && template[i + 1] === c) {
      text += c;
      i++;
      continue;
    }
    if (c === '}') throw new Error(`lone "}" at ${i} in template`);
    if (c === '{') {
      const end = template.indexOf('}', i);
      const name = end < 0 ? '' : template.slice(i + 1, end);
      if (!ROUTINE_PARAMETER_NAME.test(name)) throw new Error(`bad parameter at ${i} in template`);
      if (text) parts.push(text);
      text = '';
      parts.push({ param: name });
      i = end;
      continue;
    }
    text += c;
  }
  if (text) parts.push(text);
  return parts;
}

/** The template with each `{name}` replaced by its value; throws when a value is missing. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return parseTemplate(template)
    .map((p) => {
      if (typeof p === 'string') return p;
      const value = values[p.param];
      if (value === undefined) throw new Error(`no value for parameter {${p.param}}`);
      return value;
    })
    .join('');
}
