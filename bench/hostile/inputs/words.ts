// Deterministic filler: realistic words from a seeded generator, so inputs are the same on every
// run (a failure reproduces) and compress like text, not like a repeated byte.
const WORDS = (
  'the of and to in is for on that with as by at from this be are was it an or which invoice ' +
  'total amount due date payment customer account order number item quantity price tax net ' +
  'gross balance supplier address street city postal code country phone email reference ' +
  'description service delivery shipping discount subtotal currency bank transfer terms days ' +
  'patient report result sample range unit method doctor clinic insurance claim policy ' +
  'member provider diagnosis treatment procedure charge approved denied pending review ' +
  'quarter annual monthly weekly summary section table figure appendix note remark signed'
).split(' ');

/** mulberry32: a tiny, well-distributed PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `words(n)`: the next n words of a seeded stream. */
export function seededWords(seed: number): (count: number) => string[] {
  const random = prng(seed);
  return (count) =>
    Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)] ?? 'x');
}
