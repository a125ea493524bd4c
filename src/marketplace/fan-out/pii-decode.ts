/**
 * @module Every form a partner string can be read in, to a bound
 * (docs/partner-interface.md#pii-in-replies): as is, each percent-decoding (`+` as a space), and every base64 or base64url token decoded to
 * readable text, nested in any order up to `MAX_DECODE_DEPTH` layers. Each form is NFKC-normalised and its
 * invisible format characters removed first, so `％３９` and `%3\u200B9` decode like `%39`. What still
 * decodes past the bound is reported (`tooDeep`), and the finder refuses it: an honest link is encoded once
 * or twice (a redirect inside a redirect), and anything deeper is hiding something from this check.
 */

/** Layers undone, percent and base64 in any mix: a redirect within a redirect within a tracker is 3. */
export const MAX_DECODE_DEPTH = 4
/** A bound on the work per string; past it the string is refused like one nested too deep. */
const MAX_FORMS = 256
/** Base64 of 6 bytes or more (an email as short as `a@b.co`), cut at anything that is not base64. */
const BASE64_TOKEN = /[A-Za-z0-9+/_-]{8,}={0,2}/g
const FORMAT_CHARS = /\p{Cf}/gu
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g

export interface DecodedForms {
  /** The string itself first, then each decoding found. */
  forms: string[]
  /** Some form still decodes at the bound, or the forms passed `MAX_FORMS`. */
  tooDeep: boolean
}

export function decodedForms(value: string): DecodedForms {
  const seen = new Set<string>()
  const forms: string[] = []
  let tooDeep = false
  let layer = [prepare(value)]
  for (let depth = 0; layer.length > 0; depth++) {
    const next: string[] = []
    for (const text of layer) {
      if (seen.has(text)) continue
      seen.add(text)
      forms.push(text)
      if (forms.length > MAX_FORMS) return { forms, tooDeep: true }
      const decodings = decodeOnce(text)
      if (decodings.length === 0) continue
      if (depth === MAX_DECODE_DEPTH) tooDeep = true
      else next.push(...decodings.map(prepare))
    }
    layer = next
  }
  return { forms, tooDeep }
}

/** `value` with its percent layers undone, up to the bound (no base64): a URL part as its owner meant it. */
export function percentDecoded(value: string): string {
  let text = prepare(value)
  for (let depth = 0; depth < MAX_DECODE_DEPTH; depth++) {
    const spaced = text.replace(/\+/g, ' ')
    const next = percentDecode(spaced)
    if (next === spaced) return spaced
    text = prepare(next)
  }
  return text
}

/** NFKC (fullwidth `％`, `＋`, digits), with zero-width and other format characters removed. */
function prepare(text: string): string {
  return text.normalize('NFKC').replace(FORMAT_CHARS, '')
}

/** One more layer: the percent-decoding when it changes anything, and each base64 token that reads as text. */
function decodeOnce(text: string): string[] {
  const out: string[] = []
  // A literal `+` is a space in a query; an encoded one (`%2B`) stays a `+`, as base64 needs.
  const spaced = text.replace(/\+/g, ' ')
  const percent = percentDecode(spaced)
  if (percent !== spaced) out.push(percent)
  out.push(...base64Decodings(text))
  return out
}

/** Each run of escapes decoded as UTF-8 (a run that is not valid UTF-8 is left as it is). */
function percentDecode(text: string): string {
  return text.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
}

function base64Decodings(text: string): string[] {
  const tokens = new Set<string>()
  for (const [token] of text.matchAll(BASE64_TOKEN)) {
    tokens.add(token)
    // `/` is also a path separator and `-`, `_`, `+` join words (`app-<base64>`): the pieces too.
    for (const piece of token.split(/[/_+-]/)) if (piece.length >= 8) tokens.add(piece)
  }
  const out: string[] = []
  for (const token of tokens) {
    const standard = token.replace(/-/g, '+').replace(/_/g, '/')
    // Every alignment: a token may begin with a URL character that is not part of the encoding.
    for (let skip = 0; skip < 4 && standard.length - skip >= 8; skip++) {
      const decoded = Buffer.from(standard.slice(skip), 'base64').toString('utf8')
      if (readable(decoded)) out.push(decoded)
    }
  }
  return out
}

/** Text, not bytes: what base64 of a value looks like decoded, unlike a random id or an English word. */
function readable(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character marks binary, not text
  return text.length >= 4 && !/[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ufffd]/.test(text)
}
