/**
 * @module `GET {endpoint}/api/second-look/consent`: the operator's FCRA and TCPA texts the application shows
 * beside its boxes, sent as every widget request is (`X-Offer-Widget`, as ../bff-client.ts does) and read with
 * `consentTextsSchema` before use. Its own small door rather than bff-client.ts, whose imports (rate tables,
 * errors) this on-demand chunk does not need.
 */
import { BFF_ROUTES, WIDGET_HEADER } from '../../contract/bff.ts'
import { type ConsentTexts, consentTextsSchema } from '../../contract/consent.ts'
import { WIDGET_VERSION } from '../version.ts'

/** Resolves to the texts; rejects with an Error saying why (for the console: the visitor sees a retry). */
export async function fetchConsentTexts(endpoint: string, signal?: AbortSignal): Promise<ConsentTexts> {
  const target = `${endpoint.replace(/\/+$/, '')}${BFF_ROUTES.consentTexts}`
  const response = await fetch(target, {
    method: 'GET',
    headers: { [WIDGET_HEADER]: WIDGET_VERSION, Accept: 'application/json' },
    signal,
  })
  if (!response.ok) throw new Error(`${target} answered HTTP ${response.status}`)
  const parsed = consentTextsSchema.safeParse(await response.json())
  if (!parsed.success) throw new Error(`${target} did not answer the consent texts' shape`)
  return parsed.data
}
