/**
 * @module The three links of a displayed second-look offer, all on the BFF and all signed: `url` (a click
 * counted once per lead and offer), `unmonetizedUrl` (the same redirect, never counted: what previews
 * follow) and the impression pixel the widget fires when it renders the offer (a preview token there answers
 * the pixel and counts nothing).
 */
import type { ClickSigner } from './click-token.ts'

export interface OfferLinks {
  url: string
  unmonetizedUrl: string
  impressionUrl: string
}

export type OfferLinker = (offerId: string) => OfferLinks

/**
 * `apiBase` is absolute (`https://bff.example.com/api`): the widget may run on the publisher's origin.
 * `counted: false` (a duplicate applicant's view of the first application): every link is a preview token,
 * so the click redirects and the pixel answers, but neither ever counts as that application's.
 */
export function createOfferLinker(
  apiBase: string,
  signer: ClickSigner,
  options: { counted: boolean } = { counted: true },
): OfferLinker {
  const base = apiBase.replace(/\/+$/, '')
  const [click, impression] = options.counted
    ? (['click', 'impression'] as const)
    : (['preview', 'preview'] as const)
  return (offerId) => ({
    url: `${base}/clicks/${signer.sign(offerId, click)}`,
    unmonetizedUrl: `${base}/clicks/${signer.sign(offerId, 'preview')}`,
    impressionUrl: `${base}/impressions/${signer.sign(offerId, impression)}`,
  })
}
