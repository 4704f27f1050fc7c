/** A window with its constructors (MutationObserver, CustomEvent…): iframes have their own. */
export type Realm = Window & typeof globalThis;
