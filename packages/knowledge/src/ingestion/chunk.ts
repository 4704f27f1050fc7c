// Structure-aware chunking for retrieval. A retrieved chunk should answer one question and say
// where it sits, so the document is cut at its headings first (each section keeps its heading
// path: ["Webhooks", "Signatures"]), and only sections longer than `maxChars` are cut again by
// the Markdown chunker (which never splits inside a table row, a fence or a list item, and
// repeats a table's header row). Sections with no text of their own (a heading directly
// followed by a sub-heading) are not chunks: their heading lives on in their children's paths.
import { chunkMarkdownByStructure } from '@tandem/markdown';

export interface RetrievalChunk {
  content: string;
  headingPath: string[];
  tokenCount: number;
}

export interface RetrievalChunkOptions {
  /** Default 1 500 characters (~ 375 tokens): small enough to be precise, big enough to answer. */
  maxChars?: number;
  /** Sections shorter than this are joined with the next one under the same parent. Default 40:
   *  only one-liners ("Yes.") are joined; a sentence is worth its own chunk (and its own
   *  heading path, which phase-2 ingestion matches on). */
  minChars?: number;
}

interface Section {
  headingPath: string[];
  body: string;
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

export const estimateTokenCount = (text: string): number => Math.ceil(text.length / 4);

/** The document's sections in order, each with the path of headings above it. */
export function splitSections(markdown: string): Section[] {
  const sections: Section[] = [];
  const path: Array<{ level: number; text: string }> = [];
  let lines: string[] = [];
  let inFence = false;
  const flush = () => {
    const body = lines.join('\n').trim();
    if (body !== '') sections.push({ headingPath: path.map((h) => h.text), body });
    lines = [];
  };
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(line);
    if (!heading) {
      lines.push(line);
      continue;
    }
    flush();
    const level = heading[1]?.length ?? 1;
    while (path.length > 0 && (path.at(-1)?.level ?? 0) >= level) path.pop();
    path.push({ level, text: (heading[2] ?? '').replace(/[*_`]/g, '').trim() });
  }
  flush();
  return sections;
}

/** Joins short neighbours that share a parent, so a glossary of one-liners is not 40 chunks. */
function mergeShort(sections: Section[], minChars: number, maxChars: number): Section[] {
  const merged: Section[] = [];
  for (const section of sections) {
    const last = merged.at(-1);
    const sameParent =
      last !== undefined &&
      last.headingPath.slice(0, -1).join('\u0000') ===
        section.headingPath.slice(0, -1).join('\u0000');
    if (
      last &&
      sameParent &&
      last.body.length < minChars &&
      last.body.length + section.body.length < maxChars
    ) {
      const heading = section.headingPath.at(-1);
      last.body = `${last.body}\n\n${heading ? `**${heading}**\n\n` : ''}${section.body}`;
      continue;
    }
    merged.push({ ...section });
  }
  return merged;
}

export function chunkForRetrieval(
  markdown: string,
  options: RetrievalChunkOptions = {},
): RetrievalChunk[] {
  const maxChars = options.maxChars ?? 1500;
  const minChars = options.minChars ?? 40;
  const chunks: RetrievalChunk[] = [];
  for (const section of mergeShort(splitSections(markdown), minChars, maxChars)) {
    const parts =
      section.body.length <= maxChars
        ? [section.body]
        : chunkMarkdownByStructure(section.body, { maxChunkSize: maxChars, overlapLines: 1 }).map(
            (c) => c.content.trim(),
          );
    for (const content of parts) {
      if (content === '') continue;
      chunks.push({
        content,
        headingPath: section.headingPath,
        tokenCount: estimateTokenCount(content),
      });
    }
  }
  return chunks;
}
