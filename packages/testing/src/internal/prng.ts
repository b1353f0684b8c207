/**
 * Small deterministic helpers: a string hash and a seeded pseudo-random generator.
 *
 * Nothing here uses `Math.random`: the same inputs always give the same outputs, on every runtime.
 */

/** FNV-1a over the UTF-16 code units of a string, as an unsigned 32-bit integer. */
export const hashString = (text: string, basis = 0x811c9dc5): number => {
  let h = basis >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

/** Mixes several integers into one 32-bit seed. */
export const mixSeeds = (...parts: ReadonlyArray<number>): number => {
  let h = 0x9e3779b9
  for (const part of parts) {
    // fold numbers larger than 32 bits too (seeds may be up to 2^53)
    const lo = part >>> 0
    const hi = Math.floor(part / 0x100000000) >>> 0
    h = Math.imul(h ^ lo, 0x85ebca6b) >>> 0
    h = Math.imul(h ^ (h >>> 13) ^ hi, 0xc2b2ae35) >>> 0
    h = (h ^ (h >>> 16)) >>> 0
  }
  return h >>> 0
}

/** A random source: each call returns a float in [0, 1). */
export type Random = () => number

/** mulberry32: a tiny, fast, good-enough PRNG seeded with a 32-bit integer. */
export const seeded = (seed: number): Random => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** An integer in [min, max] (both inclusive). */
export const intBetween = (random: Random, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1))

/** One element of a non-empty array. */
export const pick = <A>(random: Random, items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)]!
