import { afterEach, describe, expect, it, vi } from 'vitest'
import { upstreamErrorBodySchema } from '../../src/contract/offer-search.ts'
import { createSandbox, seededRandom } from '../../src/sandbox/index.ts'
import { headers, TOKENS } from './support/sandbox-tests.ts'

const issuers = (sandbox: ReturnType<typeof createSandbox>, extra: Record<string, string> = {}) =>
  sandbox.fetch(
    new Request('http://localhost/test/leads/autoInsurance/issuers', { headers: headers('test', extra) }),
  )

afterEach(() => {
  vi.useRealTimers()
})

describe('sandbox fault injection (set in code, never by a request header)', () => {
  it('errorRate 1 answers every API request with 503 or 500 and an error body; 0 restores service', async () => {
    const sandbox = createSandbox({ tokens: TOKENS, random: seededRandom(1) })
    sandbox.setFaults({ errorRate: 1 })
    const statuses = new Set<number>()
    for (let i = 0; i < 20; i++) {
      const response = await issuers(sandbox)
      statuses.add(response.status)
      expect(upstreamErrorBodySchema.safeParse(await response.json()).success).toBe(true)
    }
    expect(statuses).toEqual(new Set([500, 503]))
    sandbox.setFaults({ errorRate: 0 })
    expect((await issuers(sandbox)).status).toBe(200)
  })

  it('rateLimitRate 1 answers 429 with Retry-After in seconds', async () => {
    const sandbox = createSandbox({ tokens: TOKENS, faults: { rateLimitRate: 1 } })
    const response = await issuers(sandbox)
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('1')
  })

  it('faults come before authentication, as a failing network or service would', async () => {
    const sandbox = createSandbox({ tokens: TOKENS, faults: { errorRate: 1 } })
    const response = await sandbox.app.request('/test/leads/autoInsurance/issuers')
    expect(response.status).toBeGreaterThanOrEqual(500)
  })

  it('resetRate 1 in-process: fetch rejects like undici ("fetch failed", cause ECONNRESET)', async () => {
    const sandbox = createSandbox({ tokens: TOKENS, faults: { resetRate: 1 } })
    const error = await issuers(sandbox).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(TypeError)
    expect((error as TypeError).message).toBe('fetch failed')
    expect(((error as TypeError).cause as { code?: string }).code).toBe('ECONNRESET')
  })

  it('latencyMs delays the answer on the (fake) clock; nothing sleeps for real', async () => {
    vi.useFakeTimers()
    const sandbox = createSandbox({ tokens: TOKENS, faults: { latencyMs: 800 } })
    let settled = false
    const pending = issuers(sandbox).then((response) => {
      settled = true
      return response
    })
    await vi.advanceTimersByTimeAsync(799)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect((await pending).status).toBe(200)
  })

  it('latencyJitterMs adds up to that much, drawn from the injected random', async () => {
    vi.useFakeTimers()
    const sandbox = createSandbox({ tokens: TOKENS, random: () => 0.5, faults: { latencyJitterMs: 1000 } })
    let settled = false
    const pending = issuers(sandbox).then(() => {
      settled = true
    })
    await vi.advanceTimersByTimeAsync(499)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await pending
    expect(settled).toBe(true)
  })

  it('a seeded random makes a partial fault rate repeat exactly', async () => {
    const run = async () => {
      const sandbox = createSandbox({ tokens: TOKENS, random: seededRandom(99), faults: { errorRate: 0.5 } })
      const statuses: number[] = []
      for (let i = 0; i < 100; i++) statuses.push((await issuers(sandbox)).status)
      return statuses
    }
    const [a, b] = [await run(), await run()]
    expect(a).toEqual(b)
    const failures = a.filter((s) => s >= 500).length
    expect(failures).toBeGreaterThan(30)
    expect(failures).toBeLessThan(70)
  })

  it('no request header turns a fault on', async () => {
    const sandbox = createSandbox({ tokens: TOKENS })
    const response = await issuers(sandbox, {
      'x-sandbox-faults': '{"errorRate":1,"resetRate":1}',
      'x-fault': '503',
      'x-error-rate': '1',
      'x-latency-ms': '5000',
    })
    expect(response.status).toBe(200)
  })

  it('faults touch only the API, not pixels or logos', async () => {
    const sandbox = createSandbox({ tokens: TOKENS, faults: { errorRate: 1 } })
    const logo = await sandbox.app.request('/logos/carriers/granite-mutual.svg')
    expect(logo.status).toBe(200)
  })

  it('rejects impossible settings, naming the field', () => {
    const sandbox = createSandbox({ tokens: TOKENS })
    expect(() => sandbox.setFaults({ errorRate: 1.5 })).toThrow(/errorRate/)
    expect(() => sandbox.setFaults({ latencyMs: -1 })).toThrow(/latencyMs/)
    expect(() => createSandbox({ faults: { resetRate: Number.NaN } })).toThrow(/resetRate/)
    expect(sandbox.faults().errorRate).toBe(0)
  })

  it('reset() clears the faults', async () => {
    const sandbox = createSandbox({ tokens: TOKENS, faults: { errorRate: 1 } })
    sandbox.reset()
    expect((await issuers(sandbox)).status).toBe(200)
  })
})
