/**
 * A ceiling on leads per minute from every address together (issue 44: beyond the per-address bucket
 * nothing bounded leads; 25 addresses in distinct /64s behind a trusted proxy sent 25 of 25). Sandbox mode,
 * PGlite in memory, the second look of a started server behind a trusted proxy on loopback.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { loadConfig } from '../../src/server/config.ts'
import { startServer } from '../../src/server/start-server.ts'
import { UA } from '../bff/support/harness.ts'
import { secondLookLead } from '../support/second-look-lead.ts'
import { http } from '../support/server-requests.ts'

vi.setConfig({ testTimeout: 60_000 })

it('refuses leads past LEAD_CEILING_PER_MINUTE whatever address they come from, naming the ceiling', async () => {
  const running = await startServer(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      TRUST_PROXY: 'loopback',
      LEAD_CEILING_PER_MINUTE: '3',
      // The simulated partners take seconds; nothing here waits for their answers.
      MARKETPLACE_DRAIN_TIMEOUT_MS: '0',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'lead-ceiling-')),
    }),
    { secondLook: { inMemoryLedger: true } },
  )
  try {
    const statuses: number[] = []
    let refusal = { status: 0, text: '', retryAfter: '' }
    for (let i = 0; i < 8; i++) {
      // 8 visitors, each in its own /64: the per-address limit never meets them.
      const res = await http(`${running.url}/api/second-look`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-offer-widget': 'test',
          'user-agent': UA,
          'x-forwarded-for': `2001:db8:${(i + 1).toString(16)}::1`,
        },
        body: JSON.stringify(secondLookLead()),
      })
      statuses.push(res.status)
      if (res.status === 429)
        refusal = { status: 429, text: res.text, retryAfter: String(res.headers['retry-after']) }
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(3)
    expect(statuses.slice(3)).toEqual(Array(5).fill(429))
    expect(JSON.parse(refusal.text)).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/at most 3 loan applications a minute \(LEAD_CEILING_PER_MINUTE\)/),
    })
    expect(Number(refusal.retryAfter)).toBeGreaterThan(0)
  } finally {
    await running.close()
  }
})
