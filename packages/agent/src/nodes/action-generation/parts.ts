// The features action generation gathers (part.ts), in order: their rules go into the system
// prompt in this order, and the model's answer goes through them in this order (collect stores
// its items first; a reported gap comes before an extraction, which comes before a page read).
// A new feature is a part beside its code and one line here.
import { capturePart } from '../../capture/action-part';
import { collectPart } from '../../collect/action-part';
import { missingInfoPart } from '../../missing-info/action-part';
import { pageReadsPart } from '../../page-reads/action-part';
import { routineHealPart } from '../../routines/heal-part';
import { skillsPart } from '../../skills/action-part';
import { webSearchPart } from '../../web-search/action-part';
import { criticPart } from '../critic/action-part';
import { extractionPart } from '../extraction/action-part';
import type { ActionPart } from './part';

export const ACTION_PARTS: readonly ActionPart[] = [
  capturePart,
  collectPart,
  missingInfoPart,
  extractionPart,
  pageReadsPart,
  routineHealPart,
  skillsPart,
  webSearchPart,
  criticPart,
];
