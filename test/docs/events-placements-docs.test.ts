/**
 * @module docs/events.md and docs/placements.md cannot drift from the code: each example event carries exactly
 * the payload its row of the table lists; the dataLayer examples are what `dataLayerEntries` pushes for them; the
 * measure request is the route, headers and body the BFF takes; the report's JSON example written as CSV by
 * the report's own writer is the CSV example, byte for byte.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ACCESS_TOKEN_HEADER, BFF_ROUTES, WIDGET_HEADER } from '../../src/contract/bff.ts'
import { MEASURE_PATH, searchMeasureSchema } from '../../src/contract/placement.ts'
import type { PlacementsReport } from '../../src/ledger/index.ts'
import { placementsToCsv } from '../../src/marketplace/reports/report-csv.ts'
import { dataLayerEntries } from '../../src/widget/events/data-layer.ts'
import type { EventOffer, OfferWidgetEvent } from '../../src/widget/events/widget-event.ts'
import { block, REPO } from './support/readme-blocks.ts'

const json = <T>(name: string) => JSON.parse(block(name).code) as T

/** The payload fields the table of docs/events.md lists for `type` (the backticked names before each type). */
function documentedPayload(type: string): string[] {
  const row = readFileSync(join(REPO, 'docs/events.md'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`| \`${type}\` |`))
  const payload = row?.split(' | ').at(-1) ?? ''
  // Field names are the backticked words followed by a space and "(" or "," or the end; values are not.
  return [...payload.matchAll(/`(\w+)`(?= \(|,|\s*\|?$)/g)].map((match) => match[1] as string)
}

describe('docs/events.md', () => {
  it.each(['event-field-error', 'event-offer-click', 'event-search-complete'])(
    '%s: the example carries exactly the payload its row lists',
    (name) => {
      const { type, ...payload } = json<OfferWidgetEvent>(name)
      expect(Object.keys(payload).sort()).toEqual(documentedPayload(type).sort())
    },
  )

  it('the offer in an event has the fields of EventOffer’s table', () => {
    const { offer } = json<{ offer: EventOffer }>('event-offer-click')
    expect(Object.keys(offer).sort()).toEqual(['name', 'position', 'product', 'productType', 'rank', 'uuid'])
  })

  it('offers shown: the clear, then view_item_list, as dataLayerEntries pushes them', () => {
    const pushed = json<{ ecommerce: { items: Record<string, string | number>[] } }>(
      'datalayer-view-item-list',
    )
    const offers = pushed.ecommerce.items.map(
      (item): EventOffer => ({
        uuid: String(item.item_id),
        position: Number(item.index),
        rank: Number(item.index),
        name: String(item.item_name),
        product: 'Auto insurance',
        productType: String(item.item_category),
      }),
    )
    expect(dataLayerEntries({ type: 'offers_shown', source: 'offer-search', offers })).toEqual([
      json('datalayer-clear'),
      pushed,
    ])
  })

  it('a click is select_item with the clicked item, its index its position', () => {
    const click = json<Extract<OfferWidgetEvent, { type: 'offer_click' }>>('event-offer-click')
    const [, select] = dataLayerEntries(click) as [
      unknown,
      { event: string; ecommerce: { items: unknown[] } },
    ]
    expect(select.event).toBe('select_item')
    expect(select.ecommerce.items).toEqual([
      expect.objectContaining({ item_id: click.offer.uuid, index: click.offer.position }),
    ])
  })

  it('every other event: offer_widget_<type> with its payload beside it', () => {
    expect(dataLayerEntries({ type: 'form_start', form: 'search', field: 'zipCode' })).toEqual([
      json('datalayer-form-start'),
    ])
  })
})

describe('docs/placements.md', () => {
  it('the measure request: the route, the headers and a body the BFF takes', () => {
    const lines = block('measure-request').code.split('\n')
    expect(lines[0]).toBe(`POST ${BFF_ROUTES.offerSearches}/<uuid>/${MEASURE_PATH}`)
    const headers = lines.slice(1, lines.indexOf('')).map((line) => line.split(':')[0])
    expect(headers).toEqual(expect.arrayContaining([WIDGET_HEADER, ACCESS_TOKEN_HEADER, 'Content-Type']))
    expect(searchMeasureSchema.safeParse(JSON.parse(lines.at(-1) as string)).success).toBe(true)
  })

  it('the report: its JSON example, written by the report’s CSV writer, is the CSV example', () => {
    const report = json<PlacementsReport>('placements-json')
    expect(placementsToCsv(report).trimEnd().split('\r\n')).toEqual(block('placements-csv').code.split('\n'))
  })
})
