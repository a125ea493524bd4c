/**
 * @module The widget's only door to the BFF: three requests, each sending `X-Offer-Widget`, each answer
 * checked with zod before use. No retries here; the hook decides those.
 */
import * as z from 'zod/mini'
import {
  ACCESS_TOKEN_HEADER,
  BFF_ROUTES,
  type BffError,
  bffErrorSchema,
  type CreatedSearch,
  WIDGET_HEADER,
} from '../contract/bff.ts'
import type { OfferSearchInput } from '../contract/offer-search.ts'
import { MEASURE_PATH, type SearchMeasure } from '../contract/placement.ts'
import { type Issuer, issuerListSchema, type RateTable } from '../contract/rate-table.ts'
import { parseRetryAfter } from '../contract/retry-after.ts'
import { type DroppedItem, siftRateTable } from '../contract/sift-rate-table.ts'
import { firstTime } from './once.ts'
import { WIDGET_VERSION } from './version.ts'
import { kindForStatus, OfferWidgetError } from './widget-error.ts'

/** Which BFF search resource to use; both answer with the rate-table shape. */
export type OfferSource = 'offer-search' | 'second-look'

function searchRoute(source: OfferSource): string {
  return source === 'second-look' ? BFF_ROUTES.secondLook : BFF_ROUTES.offerSearches
}

function url(endpoint: string, path: string): string {
  return `${endpoint.replace(/\/+$/, '')}${path}`
}

/** Reads an answer's body: the value, or `undefined` when it does not have the expected shape. */
type Reader<T> = (data: unknown) => T | undefined

/** The scope of `firstTime` for the warnings below: once per rate table. */
const warned = {}

/** For the publisher's developers, once per rate table: which items the widget left out and why. */
function warnDropped(uuid: string, dropped: DroppedItem[]): void {
  if (dropped.length === 0 || !firstTime(warned, uuid)) return
  console.warn(
    `offer-widget: rate table ${uuid}: ${dropped.length} item(s) break the offer search contract and were left out, the rest are shown:`,
    dropped.map((d) => `${d.item} ${d.id ?? '?'}: ${d.reason}`).join('; '),
  )
}

/** A rate table read item by item: one bad offer is left out alone (src/contract/sift-rate-table.ts). */
const readRateTable: Reader<RateTable> = (data) => {
  const sifted = siftRateTable(data)
  if (!sifted.ok) return undefined
  warnDropped(sifted.table.uuid, sifted.dropped)
  return sifted.table
}

const createdEnvelope = z.looseObject({
  accessToken: z.string().check(z.minLength(1)),
  rateTable: z.unknown(),
})

const readCreated: Reader<CreatedSearch> = (data) => {
  const envelope = createdEnvelope.safeParse(data).data
  const rateTable = envelope && readRateTable(envelope.rateTable)
  return rateTable && { ...envelope, rateTable }
}

/** `sent`: the response of this very request, already sent by the loader snippet (`adoptSentSearches`). */
async function request<T>(
  target: string,
  init: RequestInit,
  read: Reader<T>,
  what: string,
  sent?: Promise<Response>,
): Promise<T> {
  const headers = new Headers(init.headers)
  headers.set(WIDGET_HEADER, WIDGET_VERSION)
  headers.set('Accept', 'application/json')
  let response: Response
  try {
    response = await (sent ?? fetch(target, { ...init, headers }))
  } catch (cause) {
    if (init.signal?.aborted) throw cause
    throw new OfferWidgetError('network', `Could not reach the offer service (${what}): ${String(cause)}`)
  }
  if (!response.ok) throw await errorFrom(response, what)
  let body: unknown
  try {
    body = await response.json()
  } catch {
    throw new OfferWidgetError('invalid_response', `${what}: the answer was not JSON`, {
      status: response.status,
    })
  }
  const value = read(body)
  if (value === undefined) {
    throw new OfferWidgetError('invalid_response', `${what}: the answer did not match the expected shape`, {
      status: response.status,
    })
  }
  return value
}

async function errorFrom(response: Response, what: string): Promise<OfferWidgetError> {
  let body: BffError | undefined
  try {
    const parsed = bffErrorSchema.safeParse(await response.json())
    if (parsed.success) body = parsed.data
  } catch {
    // A proxy's HTML error page: the status alone decides.
  }
  const status = response.status
  return new OfferWidgetError(kindForStatus(status), body?.message ?? `${what} failed with HTTP ${status}`, {
    status,
    ...(body?.code !== undefined && { code: body.code }),
    ...(body?.errors !== undefined && { fieldErrors: body.errors }),
    ...(status === 429 && { retryAfterMs: parseRetryAfter(response.headers.get('Retry-After'), Date.now()) }),
  })
}

export function fetchIssuers(endpoint: string, signal?: AbortSignal): Promise<Issuer[]> {
  return request(
    url(endpoint, BFF_ROUTES.issuers),
    { method: 'GET', signal },
    (data) => issuerListSchema.safeParse(data).data,
    'Loading insurers',
  )
}

/**
 * Searches the loader snippet started before the bundle arrived (loader-snippet.ts), by absolute URL and
 * body: each answers the first `createSearch` that would send exactly that request, once.
 */
const sentSearches = new Map<string, Promise<Response>>()

function sentKey(target: string, body: string): string {
  return `${new URL(target, globalThis.location?.href).href}\n${body}`
}

/** Takes the snippet's `[url, body, response]` entries; anything else in the list is ignored. */
export function adoptSentSearches(entries: readonly unknown[]): void {
  for (const entry of entries) {
    if (!Array.isArray(entry)) continue
    const [target, body, response] = entry as unknown[]
    if (typeof target === 'string' && typeof body === 'string' && response instanceof Promise) {
      sentSearches.set(sentKey(target, body), response)
    }
  }
}

/** Never given an abort signal: once sent, the POST must finish so its result is kept, not re-sent. */
export function createSearch(
  endpoint: string,
  source: OfferSource,
  input: OfferSearchInput,
  idempotencyKey?: string,
): Promise<CreatedSearch> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey
  const target = url(endpoint, searchRoute(source))
  const body = JSON.stringify(input)
  let sent: Promise<Response> | undefined
  if (!idempotencyKey && sentSearches.size > 0) {
    const key = sentKey(target, body)
    sent = sentSearches.get(key)
    sentSearches.delete(key)
  }
  return request(target, { method: 'POST', headers, body }, readCreated, 'Starting the search', sent)
}

/**
 * `POST /api/offer-searches/:uuid/measure` (docs/placements.md): fire and forget, `keepalive` so a click that
 * leaves the page still arrives. A lost measure costs a count in a report, never the visitor anything.
 */
export function sendMeasure(
  endpoint: string,
  uuid: string,
  accessToken: string,
  measure: SearchMeasure,
): void {
  fetch(url(endpoint, `${BFF_ROUTES.offerSearches}/${encodeURIComponent(uuid)}/${MEASURE_PATH}`), {
    method: 'POST',
    keepalive: true,
    headers: {
      'Content-Type': 'application/json',
      [WIDGET_HEADER]: WIDGET_VERSION,
      [ACCESS_TOKEN_HEADER]: accessToken,
    },
    body: JSON.stringify(measure),
  }).catch(() => {})
}

export function pollSearch(
  endpoint: string,
  source: OfferSource,
  uuid: string,
  accessToken: string,
  signal?: AbortSignal,
): Promise<RateTable> {
  return request(
    url(endpoint, `${searchRoute(source)}/${encodeURIComponent(uuid)}`),
    { method: 'GET', headers: { [ACCESS_TOKEN_HEADER]: accessToken }, signal },
    readRateTable,
    'Checking for offers',
  )
}
