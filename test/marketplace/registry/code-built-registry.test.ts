/**
 * @module A partner registry built in code (`createMarketplace({ registry })`) gets the endpoint rule of one read
 * from PARTNERS_FILE (`partnerUrlProblem`, the one predicate): outside sandbox mode only https to a public host,
 * since the lead carries an SSN; in sandbox mode http to this machine too. A refusal names the partner and the
 * fix, and happens before anything is started.
 */
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import type { Timers } from '../../../src/http/timers.ts'
import type { Ledger } from '../../../src/ledger/index.ts'
import { sandboxConsentTexts } from '../../../src/marketplace/consent/consent-texts.ts'
import { createMarketplace } from '../../../src/marketplace/index.ts'
import type { PartnerRegistryEntry } from '../../../src/marketplace/registry/partner-registry.ts'
import { SECRET } from '../support/harness.ts'

/** A ledger no refused registry may reach: any use throws. */
const untouchedLedger = new Proxy({} as Ledger, {
  get(_, name) {
    throw new Error(`the ledger was used (${String(name)}) by a marketplace that should not exist`)
  },
})
/** Timers that never fire: the lease keeper of an accepted registry stays idle until closed. */
const stillTimers: Timers = { now: () => 0, setTimeout: () => 0, clearTimeout: () => {} }

function entry(endpoint: string): PartnerRegistryEntry {
  return {
    id: 'acme-loans',
    name: 'Acme Loans',
    tier: 'first',
    endpoint,
    timeoutMs: 5_000,
    scoreFactor: 1,
    enabled: true,
    display: {
      name: 'Acme Loans',
      logoUrl: 'https://logos.example.com/acme.svg',
      productType: 'personal_loan',
      productDisplayName: 'Personal loan',
      copy: '',
      disclaimer: '',
    },
  }
}

const build = (endpoint: string, sandboxMode: boolean, withTexts = true) =>
  createMarketplace({
    config: {
      winnerPolicy: 'phase2',
      sandboxMode,
      ...(withTexts ? { consentTexts: sandboxConsentTexts() } : {}),
    },
    ledger: untouchedLedger,
    registry: [entry(endpoint)],
    secret: SECRET,
    logger: pino({ level: 'silent' }),
    timers: stillTimers,
  })

describe('a partner registry built in code', () => {
  it.each([
    ['http://partner.example.com/leads', 'must be https outside sandbox mode'],
    ['https://127.0.0.1:8443/leads', 'this host is the machine itself'],
    ['https://router.localhost/leads', 'this host is the machine itself'],
    ['https://[::ffff:127.0.0.1]/leads', 'this host is the machine itself'],
    ['https://10.0.0.5/leads', 'this host is on a private or reserved network'],
    ['https://169.254.169.254/latest', 'this host is on a private or reserved network'],
    ['http://127.0.0.1:8788/leads', 'this host is the machine itself'],
  ])('outside sandbox mode refuses %s, naming the partner and the fix', (endpoint, reason) => {
    expect(() => build(endpoint, false)).toThrow(reason)
    expect(() => build(endpoint, false)).toThrow(
      /acme-loans\.endpoint .*\(the lead carries an SSN\): give partner "Acme Loans" its public https endpoint, or run in sandbox mode to try a partner on this machine/,
    )
  })

  it('in sandbox mode accepts this machine, over https or http, and still refuses http to another host', async () => {
    for (const endpoint of ['https://127.0.0.1:8443/leads', 'http://127.0.0.1:8788/leads']) {
      await build(endpoint, true).close()
    }
    expect(() => build('http://10.0.0.5/leads', true)).toThrow(
      /acme-loans\.endpoint must be https \(http is accepted only to a loopback host\).*give partner "Acme Loans" its public https endpoint$/,
    )
  })

  it('refuses an id used twice, as a PARTNERS_FILE does', () => {
    const endpoint = 'https://partner.example.com/leads'
    expect(() =>
      createMarketplace({
        config: { winnerPolicy: 'phase2', sandboxMode: false },
        ledger: untouchedLedger,
        registry: [entry(endpoint), entry(endpoint)],
        secret: SECRET,
        timers: stillTimers,
      }),
    ).toThrow('partner registry: id "acme-loans" is used twice; ids must be unique')
  })

  it('accepts a public https endpoint outside sandbox mode', async () => {
    await build('https://partner.example.com/leads', false).close()
  })

  it("outside sandbox mode refuses partners without the operator's consent texts, naming CONSENT_TEXTS_FILE", () => {
    expect(() => build('https://partner.example.com/leads', false, false)).toThrow(
      /consentTexts is required outside sandbox mode when partners get leads: .*loadConsentTexts\(CONSENT_TEXTS_FILE\)/,
    )
  })
})
