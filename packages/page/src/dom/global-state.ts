// State that must be shared by every copy of this package running in one JS world (the IIFE
// may be injected twice, or imported by the extension and injected by a test). It lives on
// the window under a registered symbol, so two copies agree on one id counter and registry.

export function worldGlobal<T>(win: Window, key: string, init: () => T): T {
  const holder = win as unknown as Record<symbol, T | undefined>;
  const symbol = Symbol.for(`tandem.page.${key}`);
  const existing = holder[symbol];
  if (existing !== undefined) return existing;
  const created = init();
  Object.defineProperty(holder, symbol, { value: created, configurable: true });
  return created;
}
