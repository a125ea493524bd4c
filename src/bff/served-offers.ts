/**
 * @module The offers the BFF served for each insurance search: what the widget's measure may count
 * (docs/placements.md). Each rate table the BFF answers with (the create's and every poll's) adds its offers'
 * uuids; a measure's offer counts only if it is among them. In this process's memory, bounded in searches and
 * offers and kept as long as a search's access token lives (no measure is taken after); with Redis also in
 * a set per search (`<prefix>served-offers:<uuid>`, same lifetime), so a measure that reaches a replica that
 * never served the search is judged by what any replica served. While Redis is away a replica judges by its
 * own memory: an offer it did not serve is not counted (a report that undercounts, never one a flood fills).
 */
import type { Clock } from '../http/timers.ts'
import type { RedisLink } from './redis-link.ts'

export interface ServedOffers {
  /** Remembers `offerIds` as served for search `uuid`; returns at once (Redis is written in the background). */
  add(uuid: string, offerIds: readonly string[]): void
  /** Those of `offerIds` served for search `uuid`, in their order; never rejects. */
  known(uuid: string, offerIds: readonly string[]): Promise<string[]>
}

export interface ServedOffersOptions {
  timers: Clock
  /** How long a search's offers are kept: its access token's lifetime. */
  ttlMs: number
  /** Searches kept in memory at most; the oldest go first. */
  maxSearches?: number
  /** Offers kept per search at most (a rate table shows far fewer). */
  maxOffersPerSearch?: number
  /** Shared with every replica while available. */
  link?: RedisLink
  keyPrefix?: string
}

const MAX_SEARCHES = 20_000
const MAX_OFFERS_PER_SEARCH = 200

export function createServedOffers(options: ServedOffersOptions): ServedOffers {
  const local = memoryServedOffers(options)
  const { link } = options
  if (!link) return { add: local.add, known: async (uuid, ids) => local.known(uuid, ids) }
  const prefix = options.keyPrefix ?? 'offer-widget:'
  const ttlMs = options.ttlMs
  const key = (uuid: string) => `${prefix}served-offers:${uuid}`
  return {
    add(uuid, offerIds) {
      const fresh = local.add(uuid, offerIds)
      if (fresh.length === 0 || !link.available()) return
      link.client
        .multi()
        .sadd(key(uuid), ...fresh)
        .pexpire(key(uuid), ttlMs)
        .exec()
        .catch(link.failed)
    },
    async known(uuid, offerIds) {
      const here = new Set(local.known(uuid, offerIds))
      const elsewhere = offerIds.filter((id) => !here.has(id))
      if (elsewhere.length === 0 || !link.available()) return offerIds.filter((id) => here.has(id))
      try {
        const members = await link.client.smismember(key(uuid), ...elsewhere)
        elsewhere.forEach((id, i) => {
          if (members[i] === 1) here.add(id)
        })
      } catch (error) {
        link.failed(error)
      }
      return offerIds.filter((id) => here.has(id))
    },
  }
}

/** This process's memory of served offers: `add` returns the uuids it did not hold yet. */
function memoryServedOffers(options: ServedOffersOptions) {
  const { timers, ttlMs } = options
  const maxSearches = options.maxSearches ?? MAX_SEARCHES
  const maxOffers = options.maxOffersPerSearch ?? MAX_OFFERS_PER_SEARCH
  // Insertion order is age order: the oldest search is the first key.
  const searches = new Map<string, { until: number; offers: Set<string> }>()

  const live = (uuid: string) => {
    const entry = searches.get(uuid)
    if (entry === undefined || entry.until > timers.now()) return entry
    searches.delete(uuid)
    return undefined
  }

  return {
    add(uuid: string, offerIds: readonly string[]): string[] {
      let entry = live(uuid)
      if (entry === undefined) {
        entry = { until: timers.now() + ttlMs, offers: new Set() }
        searches.set(uuid, entry)
        for (const oldest of searches.keys()) {
          if (searches.size <= maxSearches) break
          searches.delete(oldest)
        }
      }
      const fresh: string[] = []
      for (const id of offerIds) {
        if (entry.offers.has(id) || entry.offers.size >= maxOffers) continue
        entry.offers.add(id)
        fresh.push(id)
      }
      return fresh
    },
    known(uuid: string, offerIds: readonly string[]): string[] {
      const offers = live(uuid)?.offers
      return offers ? offerIds.filter((id) => offers.has(id)) : []
    },
  }
}
