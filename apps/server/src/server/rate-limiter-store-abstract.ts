// rate-limiter-flexible declares RateLimiterStoreAbstract in its types but does not export it
// from its entry point; custom stores extend it from its file (the library's documented way).
import type { RateLimiterStoreAbstract as StoreAbstractType } from 'rate-limiter-flexible';
// @ts-expect-error -- the package ships no declarations for its lib/ files; typed just below.
import StoreAbstract from 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js';

export const RateLimiterStoreAbstract = StoreAbstract as typeof StoreAbstractType;
