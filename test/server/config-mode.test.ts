/**
 * Modes that cannot be mixed (issue 44): with no token but real partners a curl-sent lead reached every
 * partner under sandbox rules (600 leads a minute per address, made-up secrets, the reports token in the
 * log, the demo pages); an empty secret mount got there too. Each mode now says why it was chosen, a
 * production signal in sandbox mode stops the start with the fix, and a loan-only publisher (no offer-search
 * account) runs production rules with offer search off.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { parsePartnerRegistry } from '../../src/marketplace/index.ts'
import { loadConfig } from '../../src/server/config.ts'
import { startServer } from '../../src/server/start-server.ts'
import { UA } from '../bff/support/harness.ts'
import { block } from '../docs/support/readme-blocks.ts'
import { issuedSsn } from '../support/applicants.ts'
import { secondLookLead } from '../support/second-look-lead.ts'
import { http } from '../support/server-requests.ts'

// Two tests start a whole server (the second look's ledger included).
vi.setConfig({ testTimeout: 30_000 })

const SECRET = '5f0c9e1a7b3d4c2e8f6a0b1c2d3e4f5a6b7c8d9e'
const LOAN_ONLY = {
  BFF_MODE: 'production',
  SESSION_SECRET: SECRET,
  PUBLIC_BASE_URL: 'https://offers.example.com',
}

describe('the mode and its reason', () => {
  it('is sandbox with no token and no BFF_MODE, production with a token, and says why', () => {
    expect(loadConfig({})).toMatchObject({
      sandboxMode: true,
      offerSearch: true,
      modeReason: 'no ENGINE_TOKEN and no BFF_MODE',
    })
    const real = loadConfig({
      ENGINE_TOKEN: 'real-token',
      ENGINE_BASE_URL_TEST: 'https://api.example.com/v1',
      SESSION_SECRET: SECRET,
      PUBLIC_BASE_URL: 'https://offers.example.com',
    })
    expect(real).toMatchObject({ sandboxMode: false, offerSearch: true, modeReason: 'ENGINE_TOKEN is set' })
  })

  it('refuses sandbox with a token, a lost token under NODE_ENV=production, and a token of spaces', () => {
    expect(() => loadConfig({ BFF_MODE: 'sandbox', ENGINE_TOKEN: 'real-token' })).toThrow(
      /BFF_MODE: sandbox with ENGINE_TOKEN set would run real, billed searches under sandbox rules; unset ENGINE_TOKEN/,
    )
    // An empty secret mount: the variable is there, its value is not.
    for (const env of [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', ENGINE_TOKEN: '' }]) {
      expect(() => loadConfig(env)).toThrow(
        /ENGINE_TOKEN: missing or empty with NODE_ENV=production \(an empty secret mount\?\); set it, or BFF_MODE=production/,
      )
    }
    expect(loadConfig({ NODE_ENV: 'production', BFF_MODE: 'sandbox' })).toMatchObject({
      sandboxMode: true,
      modeReason: 'BFF_MODE=sandbox',
    })
    expect(() => loadConfig({ ENGINE_TOKEN: '   ' })).toThrow(/ENGINE_TOKEN: only spaces/)
    expect(() => loadConfig({ BFF_MODE: 'staging' })).toThrow(/BFF_MODE must be "sandbox" or "production"/)
  })

  it('runs a loan-only server under production rules with no token: secrets and base URL required, limits tight, nothing made up', () => {
    expect(() => loadConfig({ BFF_MODE: 'production' })).toThrow(
      /SESSION_SECRET: required in production mode \(BFF_MODE=production, no ENGINE_TOKEN: second look only, offer search off\)/,
    )
    expect(() => loadConfig({ BFF_MODE: 'production', SESSION_SECRET: SECRET })).toThrow(
      /PUBLIC_BASE_URL: required in production mode/,
    )
    const config = loadConfig(LOAN_ONLY)
    expect(config).toMatchObject({
      sandboxMode: false,
      offerSearch: false,
      reportsToken: undefined,
      sandboxPartnerReportsToken: undefined,
      serveDemoPages: false,
      rateLimit: { points: 20 },
    })
    expect(config.sessionSecret).toBe(SECRET)
    expect(() => loadConfig({ ...LOAN_ONLY, PARTNERS_FILE: 'partners.yaml' })).toThrow(
      /CONSENT_TEXTS_FILE: required with PARTNERS_FILE in production mode/,
    )
  })
})

describe('partners in sandbox mode', () => {
  it('are refused on the public internet, with the fix; on this machine or a private network they are kept', () => {
    const registry = (endpoint: string) =>
      `partners:\n  - { id: lender, name: Lender, tier: first, endpoint: "${endpoint}" }\n`
    expect(() =>
      parsePartnerRegistry(registry('https://api.lender.com/leads'), { sandboxMode: true, secrets: {} }),
    ).toThrow(
      /endpoint: is on the public internet, and sandbox mode sends leads only to partners on this machine or a private network; run in production mode \(ENGINE_TOKEN, or BFF_MODE=production/,
    )
    for (const endpoint of [
      'http://127.0.0.1:9000/leads',
      'https://lender.internal/leads',
      'https://10.0.0.8/leads',
    ]) {
      expect(parsePartnerRegistry(registry(endpoint), { sandboxMode: true, secrets: {} })).toHaveLength(1)
    }
  })

  it('a started sandbox with a PARTNERS_FILE of real partners does not start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mode-partners-'))
    const file = join(dir, 'partners.yaml')
    writeFileSync(
      file,
      'partners:\n  - { id: lender, name: Lender, tier: first, endpoint: "https://api.lender.com/leads" }\n',
    )
    await expect(
      startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', PARTNERS_FILE: file, DATA_DIR: dir }), {
        secondLook: { inMemoryLedger: true },
      }),
    ).rejects.toThrow(/sandbox mode sends leads only to partners on this machine/)
  })
})

it('a loan-only server answers offer searches 404 with the fix, takes leads, and is ready', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loan-only-'))
  // The operator's texts, as the docs' example file gives them (production never uses the sample ones).
  const consentTexts = join(dir, 'consent-texts.yaml')
  writeFileSync(consentTexts, block('consent-texts-file').code)
  const running = await startServer(
    loadConfig({
      ...LOAN_ONLY,
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATA_DIR: dir,
      CONSENT_TEXTS_FILE: consentTexts,
    }),
    { secondLook: { inMemoryLedger: true } },
  )
  try {
    const headers = { 'content-type': 'application/json', 'x-offer-widget': 'test', 'user-agent': UA }
    const search = await http(`${running.url}/api/offer-searches`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ zipcode: '30301' }),
    })
    expect(search.status, search.text).toBe(404)
    expect(JSON.parse(search.text).message).toMatch(/Offer search is off on this server .*set ENGINE_TOKEN/)
    // The widget shows the operator's texts, as the consent route serves them, and sends them with the lead.
    const texts = JSON.parse((await http(`${running.url}/api/second-look/consent`, { headers })).text) as {
      fcra: { text: string }
      tcpa?: { text: string }
    }
    const lead = secondLookLead()
    // Production mode takes no SSN the SSA never issued, the sample range included.
    lead.personalInformation = { ...lead.personalInformation, ssn: issuedSsn() }
    lead.legalInformation = {
      ...lead.legalInformation,
      fcraLanguage: texts.fcra.text,
      ...(texts.tcpa ? { consentstoTcpa: 'true', tcpaLanguage: texts.tcpa.text } : {}),
    }
    const applied = await http(`${running.url}/api/second-look`, {
      method: 'POST',
      headers,
      body: JSON.stringify(lead),
    })
    expect(applied.status, applied.text).toBe(201)
    const ready = await http(`${running.url}/readyz`)
    expect(ready.status, ready.text).toBe(200)
    // Production rules: no sandbox upstream, no demo page.
    expect((await http(`${running.url}/sandbox/test/issuers`)).status).toBe(404)
    expect((await http(`${running.url}/demo.html`)).status).toBe(404)
  } finally {
    await running.close()
  }
})
