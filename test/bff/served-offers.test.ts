/**
 * The offers served per search (src/bff/served-offers.ts), what the widget's measure may count
 * (docs/placements.md): kept for the access token's lifetime, bounded per search and in searches, and with Redis
 * shared by every replica, so a measure that reaches a replica that never served the search is judged by
 * what another served; while Redis is away, by this replica's memory alone. Time is a fake clock.
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'
import { watchRedis } from '../../src/bff/redis-link.ts'
import { createServedOffers } from '../../src/bff/served-offers.ts'
import { createFakeClock } from '../support/fake-clock.ts'
import { announceSkip, unsetVariable } from '../support/skip-notice.ts'

const TTL_MS = 30 * 60 * 1000

describe('served offers in memory', () => {
  it('knows the offers served for a search until its token expires, and no other search’s', async () => {
    const clock = createFakeClock()
    const served = createServedOffers({ timers: clock.timers, ttlMs: TTL_MS })
    served.add('s1', ['a', 'b'])
    served.add('s1', ['c'])
    served.add('s2', ['x'])
    expect(await served.known('s1', ['x', 'c', 'a', 'zz'])).toEqual(['c', 'a'])
    expect(await served.known('s3', ['a'])).toEqual([])
    clock.advance(TTL_MS)
    expect(await served.known('s1', ['a'])).toEqual([])
  })

  it('holds at most so many searches (the oldest go) and so many offers per search', async () => {
    const clock = createFakeClock()
    const served = createServedOffers({
      timers: clock.timers,
      ttlMs: TTL_MS,
      maxSearches: 2,
      maxOffersPerSearch: 3,
    })
    served.add('s1', ['a'])
    served.add('s2', ['a'])
    served.add('s3', ['a', 'b', 'c', 'd'])
    expect(await served.known('s1', ['a'])).toEqual([])
    expect(await served.known('s2', ['a'])).toEqual(['a'])
    expect(await served.known('s3', ['a', 'b', 'c', 'd'])).toEqual(['a', 'b', 'c'])
  })
})

const REDIS_URL = process.env.REDIS_URL
if (!REDIS_URL)
  announceSkip('the Redis served-offers tests', unsetVariable('REDIS_URL', 'redis://127.0.0.1:6379'))

describe.skipIf(!REDIS_URL)('served offers across replicas (Redis)', () => {
  const prefix = `test:${process.pid}:${Date.now()}:served:`
  const clients: Redis[] = []
  const logger = createLogger({ level: 'silent' })
  const replica = () => {
    const redis = new Redis(REDIS_URL as string)
    clients.push(redis)
    const link = watchRedis(redis, { logger, every: () => () => {} })
    return {
      redis,
      link,
      served: createServedOffers({
        timers: createFakeClock().timers,
        ttlMs: TTL_MS,
        link,
        keyPrefix: prefix,
      }),
    }
  }
  beforeAll(async () => {
    await Promise.all([replica().redis.ping(), replica().redis.ping()])
  })
  afterAll(async () => {
    const keys = await (clients[0] as Redis).keys(`${prefix}*`)
    if (keys.length > 0) await (clients[0] as Redis).del(...keys)
    await Promise.all(clients.map((redis) => redis.quit()))
  })

  it('a replica that never served the search knows what another served; a made-up offer stays unknown', async () => {
    const [one, two] = [0, 1].map(() => replica()) as [ReturnType<typeof replica>, ReturnType<typeof replica>]
    await Promise.all([one.redis.ping(), two.redis.ping()])
    one.served.add('search-a', ['o1', 'o2'])
    // The add is written in the background: a read on the same connection comes after it.
    await one.redis.ping()
    expect(await two.served.known('search-a', ['o2', 'made-up', 'o1'])).toEqual(['o2', 'o1'])
    expect(await one.redis.pttl(`${prefix}served-offers:search-a`)).toBeGreaterThan(TTL_MS - 60_000)
  })

  it('while Redis is away, a replica judges by its own memory', async () => {
    const [one, two] = [0, 1].map(() => replica()) as [ReturnType<typeof replica>, ReturnType<typeof replica>]
    await Promise.all([one.redis.ping(), two.redis.ping()])
    one.served.add('search-b', ['o1'])
    await one.redis.ping()
    two.served.add('search-b', ['o9'])
    two.link.failed(new Error('connection lost'))
    expect(await two.served.known('search-b', ['o1', 'o9'])).toEqual(['o9'])
  })
})
