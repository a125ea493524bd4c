/** @module The issuers cache: fresh for an hour, stale-while-revalidate, a failed refresh keeps the last list. */
import { describe, expect, it } from 'vitest'
import { createIssuersCache } from '../../src/bff/issuers-cache.ts'
import { createLogger } from '../../src/bff/logger.ts'
import type { Issuer } from '../../src/contract/offer-search.ts'

const HOUR = 60 * 60 * 1000
const list = (id: string): Issuer[] => [{ id, name: id, logoImageUrl: '' }]
const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

function setup() {
  let now = 0
  const results: Array<() => Promise<Issuer[]>> = []
  let loads = 0
  const cache = createIssuersCache({
    load: () => {
      loads++
      const next = results.shift()
      return next ? next() : Promise.resolve(list('default'))
    },
    logger: createLogger({ level: 'silent' }),
    timers: { now: () => now },
  })
  return {
    cache,
    results,
    loads: () => loads,
    advance: (ms: number) => {
      now += ms
    },
  }
}

describe('createIssuersCache', () => {
  it('loads once and serves from memory for an hour', async () => {
    const s = setup()
    s.results.push(async () => list('a'))
    expect(await Promise.all([s.cache.get(), s.cache.get()])).toEqual([list('a'), list('a')])
    s.advance(HOUR - 1)
    await s.cache.get()
    expect(s.loads()).toBe(1)
  })

  it('after an hour serves the stale list at once and refreshes in the background', async () => {
    const s = setup()
    s.results.push(
      async () => list('a'),
      async () => list('b'),
    )
    await s.cache.get()
    s.advance(HOUR)
    expect(await s.cache.get()).toEqual(list('a'))
    await flush()
    expect(await s.cache.get()).toEqual(list('b'))
    expect(s.loads()).toBe(2)
  })

  it('keeps serving the last good list when a refresh fails, and retries later', async () => {
    const s = setup()
    s.results.push(
      async () => list('a'),
      async () => {
        throw new Error('upstream down')
      },
      async () => list('c'),
    )
    await s.cache.get()
    s.advance(HOUR)
    expect(await s.cache.get()).toEqual(list('a'))
    await flush()
    expect(await s.cache.get()).toEqual(list('a'))
    expect(s.loads()).toBe(2)
    s.advance(30_000)
    await s.cache.get()
    await flush()
    expect(await s.cache.get()).toEqual(list('c'))
  })

  it('with nothing cached, a failed load is the caller’s error and the next call retries', async () => {
    const s = setup()
    s.results.push(async () => {
      throw new Error('down')
    })
    await expect(s.cache.get()).rejects.toThrow('down')
    expect(await s.cache.get()).toEqual(list('default'))
  })
})
