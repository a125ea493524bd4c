/**
 * @module The server's secrets, one rule each: how long a secret must be (`SESSION_SECRET`,
 * `LEAD_ID_HASH_SECRET`, `SERVER_API_KEYS`, every key a token is signed with), how a key for one purpose
 * is derived from a secret (HMAC-SHA-256 of the purpose label, so no two purposes share a key), and the
 * keyed hash (HMAC-SHA-256, base64url) every fingerprint of ours is.
 */
import { createHmac, type KeyObject } from 'node:crypto'

/** The shortest secret accepted: 128 bits of hex; `openssl rand -hex 32` prints 64 characters (256 bits). */
export const MIN_SECRET_LENGTH = 32

/** What to do about a short or missing secret, in every message that names one. */
export const SECRET_FIX = 'use openssl rand -hex 32'

/** The fewest different characters a secret may have: 64 hex digits have about 16, a typed word far fewer. */
const MIN_DISTINCT_CHARACTERS = 10

/**
 * What makes `secret` weak, in words that follow its variable's name, or undefined when it is strong
 * enough: at least `minLength` characters, at least `MIN_DISTINCT_CHARACTERS` different ones, no spaces,
 * not one short piece repeated (`abcabcabc...`), and not three quarters or more typed walks (`qwertyuiop`, `asdfghjkl`,
 * `1234567890`, `abcdefgh`, either way). Length and variety are what a guesser pays for, and a walk has
 * neither however long it is; a random value from `openssl rand -hex 32` passes every time.
 */
export function secretWeakness(secret: string, minLength = MIN_SECRET_LENGTH): string | undefined {
  if (secret.length < minLength) return `must be at least ${minLength} characters`
  if (/\s/.test(secret)) return 'must not contain spaces'
  const distinct = new Set(secret).size
  if (distinct < MIN_DISTINCT_CHARACTERS) {
    return `has only ${distinct} different characters (at least ${MIN_DISTINCT_CHARACTERS}): it is not random`
  }
  for (let period = 1; period <= secret.length / 2; period++) {
    if (secret.length % period === 0 && secret.slice(0, period).repeat(secret.length / period) === secret) {
      return `repeats one ${period}-character piece: it is not random`
    }
  }
  if (walkedCharacters(secret) >= secret.length * WALKED_SHARE) {
    return 'is mostly keyboard rows or alphabet and digit runs (qwerty, asdf, abcd, 1234, 9876): it is not random'
  }
  return undefined
}

/**
 * Rows a typed walk follows, either way: the alphabet, the digits (0 after 9, as on the keyboard) and the
 * rows of a US keyboard, unshifted and shifted. Letters are compared in lower case.
 */
const ROWS = [
  'abcdefghijklmnopqrstuvwxyz',
  '01234567890',
  '`1234567890-=',
  '~!@#$%^&*()_+',
  'qwertyuiop[]\\',
  'qwertyuiop{}|',
  "asdfghjkl;'",
  'asdfghjkl:"',
  'zxcvbnm,./',
  'zxcvbnm<>?',
]
/** Two characters side by side on a row, in either order (`qw`, `wq`, `ab`, `ba`, `90`). */
const NEIGHBOURS = new Set(
  ROWS.flatMap((row) => [...row.slice(1)].flatMap((next, i) => [`${row[i]}${next}`, `${next}${row[i]}`])),
)
/** The shortest stretch counted as a walk: `qwer`, `4321`; a pair or three in a row happen by chance. */
const MIN_WALK = 4
/**
 * The share of a secret in walks that makes it weak: three quarters. A walk beside a random part
 * (`qwertyuiop` and 22 random characters) is not what makes a secret guessable, and a label with a run or
 * two (`test-secret-0123456789abcdef0123`, about two thirds runs) reads as a sample, not as a typed walk.
 */
const WALKED_SHARE = 3 / 4

/** How many characters of `secret` lie in walks of `MIN_WALK` or more neighbours on one row. */
function walkedCharacters(secret: string): number {
  const text = [...secret.toLowerCase()]
  let walked = 0
  let run = 1
  for (let i = 1; i <= text.length; i++) {
    if (i < text.length && NEIGHBOURS.has(`${text[i - 1]}${text[i]}`)) {
      run++
      continue
    }
    if (run >= MIN_WALK) walked += run
    run = 1
  }
  return walked
}

/** Throws, naming `who` and the fix, when `secret` is weak (`secretWeakness`). */
export function requireLongSecret(secret: string, who: string): void {
  const weakness = secretWeakness(secret)
  if (weakness !== undefined) throw new Error(`${who}: the secret ${weakness}; ${SECRET_FIX}`)
}

/** The key of one purpose (a versioned label such as `offer-widget/idempotency-body/v1`) under `secret`. */
export function purposeKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest()
}

/** HMAC-SHA-256 of `data` under `key`, base64url. */
export function keyedHash(key: string | Buffer | KeyObject, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url')
}
