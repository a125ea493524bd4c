/**
 * @module The PII finder's reading of a URL across its parts (docs/partner-interface.md#pii-in-replies,
 * docs/decisions/0114-reply-cpu-budget.md): a value split over path segments or query parameters is whole again when the
 * parts are read joined in order, or any two of them one after the other in either order. Linear in the
 * text: the in-order join is built once, and "any two parts" is never built pair by pair (quadratic in the
 * parts, which cost a 60-parameter link tens of milliseconds): a needle is in part `a` followed by part `b`
 * exactly when it lies inside one of them, or `a` ends with its first k characters (words) and `b` starts with
 * the rest, so each part is looked at once per needle and split point.
 */
import { type Canonical, canonicalOf } from './pii-canonical.ts'
import { decodedForms, percentDecoded } from './pii-decode.ts'
import { findNeedle, type Needle, type PiiKind } from './pii-needles.ts'

/** Counts the characters the finder reads and builds, so a test can see that its work grows linearly. */
export interface ScanMeter {
  chars: number
}

/** A part's digits without the letter breaks at its edges: `ssn=` does not separate it from the next digits. */
const EDGE_BREAKS = /^\|+|\|+$/g

/**
 * The first needle found across the parts of each URL or query string in `text` (a run without spaces
 * holding `/`, `?`, `&`, `=`, `#` or `;`): its path segments, query keys and values and fragment pieces, each
 * decoded (percent layers, then its deepest reading, since a part may be base64 of a piece). A generator of
 * steps (`pii-finder.ts`, `PiiSteps`): the loop may run at each `yield`, between a link's decoding, its
 * in-order readings and each needle's split search, so one long link is never one long task.
 */
export function* acrossParts(
  text: string,
  needles: readonly Needle[],
  meter?: ScanMeter,
): Generator<void, PiiKind | undefined, void> {
  const read = (decoded: string) => {
    if (meter) meter.chars += decoded.length
    return canonicalOf(decoded)
  }
  for (const chunk of text.split(/\s+/)) {
    const raw = chunk.split(/[/?&=#;]/).filter(hasWord)
    if (raw.length < 2) continue
    // Query values alone, in order: keys between the pieces of a split value would break it.
    const values = chunk
      .split(/[?&#;]/)
      .map((pair) => pair.slice(pair.indexOf('=') + 1))
      .filter(hasWord)
    const first = { parts: raw.map(percentDecoded), values: values.map(percentDecoded) }
    yield
    const deepestOf = (part: string) => decodedForms(part).forms.at(-1) ?? part
    const deepest = { parts: raw.map(deepestOf), values: values.map(deepestOf) }
    // Most links have no base64 in their parts: the second reading is then the first over again.
    const readings =
      same(first.parts, deepest.parts) && same(first.values, deepest.values) ? [first] : [first, deepest]
    for (const reading of readings) {
      yield
      const parts = reading.parts.map(read)
      const found =
        inOrder(parts, needles, meter) ??
        (values.length >= 2 ? inOrder(reading.values.map(read), needles, meter) : undefined)
      if (found !== undefined) return found
      const split = yield* anyTwo(parts, needles, meter)
      if (split !== undefined) return split
    }
  }
  return undefined
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.every((x, i) => x === b[i])
}

function hasWord(part: string): boolean {
  return /[\p{L}\p{N}]/u.test(part)
}

/** The parts read one after the other, as if they had never been apart (no source spans), built once. */
function inOrder(parts: readonly Canonical[], needles: readonly Needle[], meter?: ScanMeter) {
  const reading: Canonical = {
    digits: { text: parts.map((p) => p.digits.text.replace(EDGE_BREAKS, '')).join(''), from: [], to: [] },
    alnum: { text: parts.map((p) => p.alnum.text).join(''), from: [], to: [] },
    tokens: parts.flatMap((p) => p.tokens),
  }
  if (meter) meter.chars += reading.digits.text.length + reading.alnum.text.length + reading.tokens.length
  for (const needle of needles) if (findNeedle(reading, needle, false).length > 0) return needle.kind
  return undefined
}

/**
 * The needle found in some part followed by another part (either order, any two), without building those
 * readings: inside one part (its edges count as the ends of a run, as when the other part has no digits), or
 * split at k, the first k characters (or words) ending one part and the rest starting a different one.
 */
function* anyTwo(
  parts: readonly Canonical[],
  needles: readonly Needle[],
  meter?: ScanMeter,
): Generator<void, PiiKind | undefined, void> {
  const digits = parts.map((p) => p.digits.text.replace(EDGE_BREAKS, ''))
  const alnum = parts.map((p) => p.alnum.text)
  const words = parts.map((p) => p.tokens.map((t) => t.text))
  if (meter) for (const d of digits) meter.chars += d.length
  for (const needle of needles) {
    yield
    if (needle.in === 'tokens') {
      if (splitAcross(words, needle.words, startsWithWords, endsWithWords)) return needle.kind
      continue
    }
    const texts = needle.in === 'digits' ? digits : alnum
    const whole = needle.in === 'digits' && needle.wholeRun === true
    const one = { digits: { text: '', from: [], to: [] }, alnum: { text: '', from: [], to: [] }, tokens: [] }
    for (const text of texts) {
      if (!text.includes(needle.text)) continue
      const alone: Canonical = { ...one, [needle.in]: { text, from: [], to: [] } }
      if (findNeedle(alone, needle, false).length > 0) return needle.kind
    }
    const starts = (text: string, piece: string) =>
      text.startsWith(piece) && (!whole || text.length === piece.length || text[piece.length] === '|')
    const ends = (text: string, piece: string) =>
      text.endsWith(piece) &&
      (!whole || text.length === piece.length || text[text.length - piece.length - 1] === '|')
    if (splitAcross(texts, needle.text, starts, ends)) return needle.kind
  }
  return undefined
}

/** Whether, for some k, one part ends with `needle[0, k)` and a different part starts with `needle[k, n)`. */
function splitAcross<P extends string | string[]>(
  parts: readonly P[],
  needle: P,
  starts: (part: P, piece: P) => boolean,
  ends: (part: P, piece: P) => boolean,
): boolean {
  const n = needle.length
  // Per split point: how many parts end with its head (start with its tail), and the last of them.
  const enders = new Array<number>(n).fill(0)
  const enderAt = new Array<number>(n).fill(-1)
  const starters = new Array<number>(n).fill(0)
  const starterAt = new Array<number>(n).fill(-1)
  for (const [i, part] of parts.entries()) {
    if (part.length === 0) continue
    const first = part[0]
    const last = part[part.length - 1]
    for (let k = 1; k < n; k++) {
      // One comparison rules out almost every split point before any piece is cut.
      if (needle[k - 1] === last && ends(part, needle.slice(0, k) as P)) {
        enders[k] = (enders[k] ?? 0) + 1
        enderAt[k] = i
      }
      if (needle[k] === first && starts(part, needle.slice(k) as P)) {
        starters[k] = (starters[k] ?? 0) + 1
        starterAt[k] = i
      }
    }
  }
  for (let k = 1; k < n; k++) {
    const e = enders[k] ?? 0
    const s = starters[k] ?? 0
    // Two different parts: more than one of either kind, or the only two are not the same part.
    if (e > 0 && s > 0 && (e > 1 || s > 1 || enderAt[k] !== starterAt[k])) return true
  }
  return false
}

function startsWithWords(part: string[], piece: string[]): boolean {
  return piece.length <= part.length && piece.every((w, i) => part[i] === w)
}

function endsWithWords(part: string[], piece: string[]): boolean {
  const offset = part.length - piece.length
  return offset >= 0 && piece.every((w, i) => part[offset + i] === w)
}
