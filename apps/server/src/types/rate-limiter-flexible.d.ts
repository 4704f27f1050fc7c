// rate-limiter-flexible declares RateLimiterStoreAbstract in its types but does not export it
// from its entry point; custom stores extend it from its file (the library's documented way).
declare module 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js' {
  import type { RateLimiterStoreAbstract } from 'rate-limiter-flexible';
  const StoreAbstract: typeof RateLimiterStoreAbstract;
  export default StoreAbstract;
}
