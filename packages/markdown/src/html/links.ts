// The links of a page, for what a routine checks in the HTML it read (is there a next page?):
// htmlparser2's streaming parser, no DOM. Attribute values come decoded (`&amp;` in an href),
// and script and style text and comments hold no links, as a browser reads them.
import { Parser } from 'htmlparser2';

const LINKS = new Set(['a', 'area', 'link']);

/** The attributes of every <a>, <area> and <link>, in page order; names lower-case. */
export function linksOf(html: string): Record<string, string>[] {
  const links: Record<string, string>[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (LINKS.has(name)) links.push(attributes);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return links;
}
