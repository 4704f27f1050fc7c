// The mode router (docs/specs.md, "Hybrid Vision + Skeleton Mode"): which page capture the next
// action should be decided on. The V3 tree by default; a screenshot (hybrid) for visual or
// spatial goals ("click the red button", "the icon in the top-right corner") and for pages
// that draw on a canvas the tree cannot see; the whole DOM (full) when the tree is poor and a
// screenshot is no use or cannot be read. Pure: the caller says whether its model reads images.
import type { PageState } from '../page/page-state';
import { treeCoverage } from './tree-coverage';

export type CaptureMode = 'tree' | 'full' | 'hybrid';

export interface ModeDecision {
  mode: CaptureMode;
  /** Why, for the thought shown to the user and the logs. */
  reason: string;
}

const COLOURS =
  'red|green|blue|yellow|orange|purple|violet|pink|black|white|gr[ae]y|brown|golden|silver';
const SHAPES =
  'button|icon|link|box|square|circle|shape|tile|card|area|arrow|dot|star|heart|sign|label|tab|bar|banner|badge|marker|pin|one';

/**
 * Phrases that need eyes, per docs/specs.md, "Hybrid Vision + Skeleton Mode" ("icon", "image",
 * "looks like", corners, "next to"), written so everyday words do not trigger them: "scroll to the
 * top" and "the top 5 jobs" are not spatial, "at the top right" is; a colour counts only when it
 * describes a control.
 */
const VISUAL_PATTERNS: readonly RegExp[] = [
  new RegExp(`\\b(?:${COLOURS})\\b(?:[\\s-]+[\\p{L}\\d]+){0,2}?[\\s-]+(?:${SHAPES})s?\\b`, 'iu'),
  /\b(?:icon|image|picture|photo|logo|thumbnail|screenshot|canvas|chart|graph|diagram|drawing|colou?red|what colou?r|looks? like|shaped)s?\b/i,
  /\b(?:top|bottom|upper|lower)[\s-]+(?:left|right)\b/i,
  /\b(?:in|at|on|near)\s+the\s+(?:top|bottom|left|right|corner|middle|cent(?:er|re))\b/i,
  /\b(?:next to|beside|to the (?:left|right) of)\b/i,
];

/** The visual or spatial phrase of the goal, or null when the goal needs no eyes. */
export function visualPhrase(goal: string): string | null {
  for (const pattern of VISUAL_PATTERNS) {
    const match = pattern.exec(goal);
    if (match) return match[0];
  }
  return null;
}

/**
 * The capture to decide on. A screenshot only for a model that reads images; otherwise a
 * poor tree falls back to the DOM, and a visual goal on a good tree stays on the tree (its
 * names and the DOM say nothing more about colours or places).
 */
export function routeMode(input: {
  goal: string;
  page: Pick<PageState, 'tree' | 'viewportContent'>;
  readsImages: boolean;
}): ModeDecision {
  const phrase = visualPhrase(input.goal);
  const coverage = treeCoverage(input.page);
  const canvas = (input.page.viewportContent?.canvases ?? 0) > 0;
  const wantsEyes = phrase !== null || (coverage.poor && canvas);
  if (wantsEyes && input.readsImages) {
    return {
      mode: 'hybrid',
      reason:
        phrase !== null
          ? `the goal is visual (“${phrase}”)`
          : `${coverage.poor ? coverage.reason : ''} and the page draws on a canvas`,
    };
  }
  const blind = wantsEyes ? '; the model reads no images' : '';
  if (coverage.poor) return { mode: 'full', reason: `${coverage.reason}${blind}` };
  return {
    mode: 'tree',
    reason: wantsEyes ? `the element list is used${blind}` : 'the element list covers the page',
  };
}
