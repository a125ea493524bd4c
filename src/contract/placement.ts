/**
 * @module Placements (docs/placements.md): a short id the publisher picks for one spot on its pages
 * ("home-hero", "quote-sidebar"), carried with every search and lead from that spot so revenue can be told
 * per placement; and the widget's measure of an offer search (what it showed, what was clicked), which the
 * BFF cannot see itself because an insurance click goes straight to the carrier.
 */
import * as z from 'zod/mini'
import { nonEmptyText } from './common.ts'

/** Letters, digits, `_`, `-` and `.`, starting with a letter or digit, at most 40: never room for visitor data. */
export const PLACEMENT_PATTERN = /^[A-Za-z0-9][\w.-]{0,39}$/

const PLACEMENT_ERROR =
  'placement must be 1 to 40 letters, digits, "_", "-" or ".", starting with a letter or digit (e.g. "home-hero")'

export const placementSchema = z
  .string({ error: PLACEMENT_ERROR })
  .check(z.regex(PLACEMENT_PATTERN, { error: PLACEMENT_ERROR }))

/** The most offers one measure names (a rate table shows far fewer). */
export const MEASURE_MAX_OFFERS = 50

/** The path under an offer search that takes its measures: `POST /api/offer-searches/:uuid/measure`. */
export const MEASURE_PATH = 'measure'

const offerUuid = nonEmptyText('offer uuid', 200)

/**
 * `POST /api/offer-searches/:uuid/measure`, with the search's access token (the header the poll sends):
 * `{ shown: [offer uuid, ...] }` when offers render, `{ clicked: offer uuid }` when one is clicked. The BFF
 * counts each offer once per search however often a measure repeats, and answers 204.
 */
export const searchMeasureSchema = z.union(
  [
    z.strictObject({
      shown: z
        .array(offerUuid)
        .check(
          z.minLength(1, { error: 'shown must name at least one offer uuid' }),
          z.maxLength(MEASURE_MAX_OFFERS, { error: `shown names at most ${MEASURE_MAX_OFFERS} offers` }),
        ),
    }),
    z.strictObject({ clicked: offerUuid }),
  ],
  { error: 'A measure is { "shown": [offer uuid, ...] } or { "clicked": offer uuid }' },
)
export type SearchMeasure = z.infer<typeof searchMeasureSchema>
