/**
 * @module Injectable randomness for the sandbox: a seeded generator so tests and load runs repeat exactly,
 * and UUIDs drawn from whichever generator is in use.
 */
/** A source of numbers in [0, 1), like `Math.random`. */
export type Random = () => number

/** mulberry32: tiny, fast, and good enough to make fixtures look varied; never for secrets. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/**
 * Default generator: crypto-backed so rate table ids of unrelated runs do not collide. Web Crypto, not
 * node:crypto, so this module also loads in a browser (the playground).
 */
export const cryptoRandom: Random = () => {
  const [high = 0, low = 0] = globalThis.crypto.getRandomValues(new Uint32Array(2))
  return ((high >>> 11) * 2 ** 32 + low) / 2 ** 53
}

/** An RFC 4122 version 4 UUID built from `random`, so a seeded sandbox issues the same ids every run. */
export function randomUuid(random: Random): string {
  let hex = ''
  for (let i = 0; i < 32; i++) hex += Math.floor(random() * 16).toString(16)
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** A 32-bit seed drawn from `random`, used to derive a rate table's fixtures lazily and repeatably. */
export function randomSeed(random: Random): number {
  return Math.floor(random() * 4_294_967_296) >>> 0
}
