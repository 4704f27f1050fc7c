// Stable element ids (`data-llm-id`). Rules:
//  1. An element that already carries an id keeps it (unless it is a copy: cloneNode copies
//     attributes, so a second live element with the same id gets a new one).
//  2. A new element whose fingerprint (frame, role, name, structural path) matches an element
//     captured before gets that element's id back, but only once the old element is detached:
//     an id never names two live elements, and never moves to a different fingerprint.
//  3. Otherwise the next number. The counter only grows and starts above any numeric id
//     already in the page (a content script re-injected after an extension reload).
// The registry also remembers, per id, the role and name captured last, which the executor
// checks before acting.
import { isValidLlmId, LLM_ID_ATTRIBUTE } from '../dom/elements';
import { worldGlobal } from '../dom/global-state';

export interface IdEntry {
  fingerprint: string;
  role: string;
  name: string;
  /** The name cap the capture used, so the executor recomputes names comparably. */
  nameLength: number;
  frame: number;
  ref: WeakRef<Element>;
}

export interface IdRegistry {
  next: number;
  byId: Map<string, IdEntry>;
  byFingerprint: Map<string, string>;
  frameNumbers: WeakMap<Element, number>;
  nextFrame: number;
}

/** Entries whose element is gone are swept once the registry grows past this. */
const SWEEP_THRESHOLD = 20_000;

export function registryFor(win: Window): IdRegistry {
  return worldGlobal(win, 'id-registry', () => ({
    next: 1,
    byId: new Map(),
    byFingerprint: new Map(),
    frameNumbers: new WeakMap(),
    nextFrame: 1,
  }));
}

export function frameNumberOf(registry: IdRegistry, iframe: Element): number {
  let number = registry.frameNumbers.get(iframe);
  if (number === undefined) {
    number = registry.nextFrame++;
    registry.frameNumbers.set(iframe, number);
  }
  return number;
}

/** The live element an id names, if the registry still holds it. */
export function liveElement(entry: IdEntry | undefined): Element | undefined {
  const el = entry?.ref.deref();
  return el?.isConnected ? el : undefined;
}

export interface IdRequest {
  el: Element;
  fingerprint: string;
  role: string;
  name: string;
  nameLength: number;
  frame: number;
}

/**
 * Gives every requested element an id and returns them in order. Attribute writes are
 * collected and applied at the end, after all reads.
 */
export function assignIds(
  registry: IdRegistry,
  requests: IdRequest[],
  maxNumericId: number,
): string[] {
  if (registry.next <= maxNumericId) registry.next = maxNumericId + 1;
  const taken = new Set<string>();
  const writes: [Element, string][] = [];
  const ids: string[] = [];

  for (const request of requests) {
    const { el, fingerprint } = request;
    const current = el.getAttribute(LLM_ID_ATTRIBUTE);
    let id: string | undefined;

    if (isValidLlmId(current) && !taken.has(current)) {
      const holder = liveElement(registry.byId.get(current));
      if (!holder || holder === el) id = current;
    }
    if (id === undefined) {
      const previous = registry.byFingerprint.get(fingerprint);
      if (previous !== undefined && !taken.has(previous)) {
        const holder = liveElement(registry.byId.get(previous));
        if (!holder || holder === el) id = previous;
      }
    }
    if (id === undefined) {
      do id = String(registry.next++);
      while (taken.has(id) || liveElement(registry.byId.get(id)));
    }

    taken.add(id);
    ids.push(id);
    const entry = registry.byId.get(id);
    if (entry && entry.ref.deref() === el) {
      entry.fingerprint = fingerprint;
      entry.role = request.role;
      entry.name = request.name;
      entry.nameLength = request.nameLength;
      entry.frame = request.frame;
    } else {
      registry.byId.set(id, {
        fingerprint,
        role: request.role,
        name: request.name,
        nameLength: request.nameLength,
        frame: request.frame,
        ref: new WeakRef(el),
      });
    }
    registry.byFingerprint.set(fingerprint, id);
    if (current !== id) writes.push([el, id]);
  }

  for (const [el, id] of writes) el.setAttribute(LLM_ID_ATTRIBUTE, id);
  if (registry.byId.size > SWEEP_THRESHOLD) sweep(registry);
  return ids;
}

function sweep(registry: IdRegistry): void {
  for (const [id, entry] of registry.byId) {
    if (liveElement(entry)) continue;
    registry.byId.delete(id);
    if (registry.byFingerprint.get(entry.fingerprint) === id) {
      registry.byFingerprint.delete(entry.fingerprint);
    }
  }
}
