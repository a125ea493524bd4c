/**
 * @module Signed offer tokens: `<offer uuid>.<expiry, base-36 seconds>.<HMAC-SHA-256, base64url>`. The token
 * is the only thing a browser holds for an offer; the partner's `click_url` stays on the server until the
 * click. Each purpose has a key of its own: a counted click (`url`), an uncounted one (`unmonetizedUrl`,
 * what previews follow) and an impression pixel, so no token passes for another. Forged, altered or
 * expired tokens verify to nothing, compared in constant time.
 */
import { createTokenMac, type TokenMac } from '../../http/signed-token.ts'
import type { Clock } from '../../http/timers.ts'

/** `click` is counted as a unique click; `preview` redirects uncounted; `impression` is the pixel. */
type OfferTokenPurpose = 'click' | 'preview' | 'impression'

export interface ClickSigner {
  sign(offerId: string, purpose?: OfferTokenPurpose): string
  /** The offer id, or undefined for a forged, malformed or expired token, or one of another purpose. */
  verify(token: string, purpose?: OfferTokenPurpose): string | undefined
}

/** A day: long enough for a visitor who leaves the tab open, short enough that old links die. */
export const DEFAULT_CLICK_TOKEN_TTL_MS = 24 * 60 * 60 * 1000

const TOKEN =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{43})$/

export function createClickSigner(
  secret: string,
  options: { ttlMs?: number; timers?: Clock } = {},
): ClickSigner {
  const ttlMs = options.ttlMs ?? DEFAULT_CLICK_TOKEN_TTL_MS
  // A key per purpose, so a token can never pass for another signed with the same secret. The click key
  // is the one click links always had, so links handed out before impressions existed still work.
  const mac = (purpose: string) =>
    createTokenMac(secret, {
      name: 'createClickSigner',
      purpose,
      ...(options.timers && { timers: options.timers }),
    })
  const keys: Record<OfferTokenPurpose, TokenMac> = {
    click: mac('offer-widget/click-token/v1'),
    preview: mac('offer-widget/preview-click-token/v1'),
    impression: mac('offer-widget/impression-token/v1'),
  }

  return {
    sign(offerId, purpose = 'click') {
      const payload = `${offerId.toLowerCase()}.${keys[purpose].expiresAt(ttlMs).toString(36)}`
      return `${payload}.${keys[purpose].sign(payload)}`
    },
    verify(token, purpose = 'click') {
      const match = TOKEN.exec(token)
      if (!match) return undefined
      const [, offerId, expiry, signature] = match as unknown as [string, string, string, string]
      return keys[purpose].verify(`${offerId}.${expiry}`, signature, Number.parseInt(expiry, 36))
        ? offerId
        : undefined
    },
  }
}
