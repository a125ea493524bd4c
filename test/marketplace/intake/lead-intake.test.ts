/**
 * @module Lead intake as plain functions: what a request must be, what is planned from it, and what each
 * ledger answer becomes. The route over them is covered by `test/marketplace/intake.test.ts`.
 */
import { describe, expect, it, vi } from 'vitest'
import type { Lead } from '../../../src/contract/partner.ts'
import type {
  CreateLeadResult,
  LeadRow,
  NewLead,
  SearchSnapshot,
  SentRequest,
} from '../../../src/ledger/index.ts'
import { LedgerError } from '../../../src/ledger/ledger-error.ts'
import { sandboxConsentTexts } from '../../../src/marketplace/consent/consent-texts.ts'
import type { PartnerRegistryEntry, PartnerTier } from '../../../src/marketplace/index.ts'
import { createApplicantHasher } from '../../../src/marketplace/intake/applicant-key.ts'
import {
  type IntakeDeps,
  intakeLead,
  type LeadRequest,
  type LeadRequestInput,
  planLead,
  readLeadRequest,
} from '../../../src/marketplace/intake/lead-intake.ts'
import { CLIENT, makeLead } from '../support/harness.ts'

const NOW = Date.parse('2026-03-01T12:00:00.000Z')

function partner(id: string, tier: PartnerTier, timeoutMs = 12_000, enabled = true): PartnerRegistryEntry {
  return {
    id,
    name: id,
    tier,
    endpoint: `https://${id}.example/leads`,
    timeoutMs,
    scoreFactor: 1,
    enabled,
    display: {
      name: id,
      logoUrl: 'https://example.com/logo.png',
      productType: 'personal_loan',
      productDisplayName: 'Personal loan',
      copy: '',
      disclaimer: '',
    },
  }
}

const registryOf = (...entries: PartnerRegistryEntry[]) => new Map(entries.map((p) => [p.id, p]))

const LEAD = makeLead()
const LEADID = '1A2B3C4D-0000-4111-8222-933344445555'

function input(overrides: Partial<LeadRequestInput> = {}): LeadRequestInput {
  return {
    idempotencyKey: undefined,
    bodyText: async () => JSON.stringify(LEAD),
    identity: () => CLIENT,
    consentTexts: sandboxConsentTexts(),
    now: Date.UTC(2026, 11, 7),
    sampleSsns: true,
    logger: { error: vi.fn() },
    ...overrides,
  }
}

async function validRequest(idempotencyKey?: string): Promise<LeadRequest> {
  const request = await readLeadRequest(input({ idempotencyKey }))
  if (request.kind !== 'lead') throw new Error(`expected a lead, got ${request.message}`)
  return request
}

describe('readLeadRequest', () => {
  it('takes the session from the live request, never from the body', async () => {
    const request = await validRequest('key-1')
    expect(request.lead.sessionInformation).toEqual(CLIENT)
    expect(request.idempotencyKey).toBe('key-1')
    expect(request.body).toEqual(LEAD)
  })

  it('refuses a malformed Idempotency-Key before reading the body', async () => {
    const bodyText = vi.fn(async () => '{}')
    const refused = await readLeadRequest(input({ idempotencyKey: 'has spaces', bodyText }))
    expect(refused).toMatchObject({ kind: 'refused', status: 400, code: 'bad_request' })
    expect(refused.kind === 'refused' && refused.errors?.[0]?.field).toBe('Idempotency-Key')
    expect(bodyText).not.toHaveBeenCalled()
  })

  it('refuses a body that is not JSON, or nests deeper than a lead can', async () => {
    const notJson = await readLeadRequest(input({ bodyText: async () => '{"personalInformation":' }))
    expect(notJson).toMatchObject({ kind: 'refused', status: 400, code: 'bad_request' })
    const deep = await readLeadRequest(input({ bodyText: async () => `${'['.repeat(50)}${']'.repeat(50)}` }))
    expect(deep).toMatchObject({ kind: 'refused', status: 400, code: 'bad_request' })
  })

  it('names each invalid field, and reads the identity only for a valid lead', async () => {
    const identity = vi.fn(() => CLIENT)
    const lead = makeLead()
    delete lead.loanInformation
    const refused = await readLeadRequest(input({ bodyText: async () => JSON.stringify(lead), identity }))
    expect(refused).toMatchObject({ kind: 'refused', status: 400, code: 'validation_failed' })
    const fields = refused.kind === 'refused' ? (refused.errors ?? []).map((e) => e.field) : []
    expect(fields).toContain('loanInformation')
    expect(identity).not.toHaveBeenCalled()
  })

  it('refuses, and logs for the operator, a live session the schema rejects (misconfigured proxies)', async () => {
    const logger = { error: vi.fn() }
    const refused = await readLeadRequest(
      input({ identity: () => ({ ipAddress: 'not-an-ip', userAgent: CLIENT.userAgent }), logger }),
    )
    expect(refused).toMatchObject({ kind: 'refused', status: 400, code: 'validation_failed' })
    const fields = refused.kind === 'refused' ? (refused.errors ?? []).map((e) => e.field) : []
    expect(fields).toEqual(['sessionInformation.ipAddress'])
    expect(logger.error).toHaveBeenCalledWith(expect.stringMatching(/trusted proxies/))
  })
})

describe('readLeadRequest: consent', () => {
  it('takes no lead without consent texts, naming CONSENT_TEXTS_FILE', async () => {
    const refused = await readLeadRequest(input({ consentTexts: undefined }))
    expect(refused).toMatchObject({ kind: 'refused', status: 503, code: 'upstream_misconfigured' })
    expect(refused.kind === 'refused' && refused.message).toMatch(/CONSENT_TEXTS_FILE/)
  })

  it('keeps the page without query, fragment or credentials, the visitor as partners get it, and the widget version', async () => {
    const body = {
      ...LEAD,
      consent: { pageUrl: 'https://me:secret@pub.example:8443/a/b?email=x@y.example#f', leadiDToken: LEADID },
    }
    const request = await readLeadRequest(
      input({ bodyText: async () => JSON.stringify(body), widgetHeader: ' 0.1.0\u0007 ' }),
    )
    if (request.kind !== 'lead') throw new Error(request.message)
    expect(request.consent).toMatchObject({
      pageUrl: 'https://pub.example:8443/a/b',
      ipAddress: CLIENT.ipAddress,
      userAgent: CLIENT.userAgent,
      widgetVersion: '0.1.0',
      leadiDToken: LEADID,
      fcra: { kind: 'fcra', version: 'sandbox' },
    })
    expect(request.lead).not.toHaveProperty('consent')
    expect(request.lead).toMatchObject({ consentCertificate: { leadiDToken: LEADID } })
  })
})

describe('planLead', () => {
  const ids = () => {
    let n = 0
    return () => `id-${++n}`
  }
  const options = (registry: Map<string, PartnerRegistryEntry>) => ({
    registry,
    windowMs: 12_000,
    firstLookDeadlineMs: 5_000,
    now: NOW,
    hashBody: () => 'hash',
    newId: ids(),
  })

  it('sends the enabled first-look partners now and keeps second look for later', async () => {
    const registry = registryOf(
      partner('first-a', 'first', 3_000),
      partner('first-off', 'first', 3_000, false),
      partner('second-a', 'second', 8_000),
    )
    const plan = planLead(await validRequest(), options(registry))
    expect(plan.requests).toEqual([
      { id: 'id-1', partnerId: 'first-a', tier: 'first', sentAt: new Date(NOW) },
    ])
    expect(plan.run.nextTier.map((p) => p.id)).toEqual(['second-a'])
    expect(plan.run.leadId).toBe(plan.lead.id)
    // First look's longest window (3 s, under its 5 s deadline), then second look's whole window.
    expect(plan.lead.deadlineAt).toEqual(new Date(NOW + 3_000 + 8_000))
  })

  it('closes first look at its deadline when a first-look partner would wait longer', async () => {
    const registry = registryOf(partner('first-a', 'first', 12_000), partner('second-a', 'second', 4_000))
    const plan = planLead(await validRequest(), options(registry))
    expect(plan.lead.deadlineAt).toEqual(new Date(NOW + 5_000 + 4_000))
  })

  it('starts with second look when no first-look partner is enabled', async () => {
    const registry = registryOf(partner('second-a', 'second', 7_000))
    const plan = planLead(await validRequest(), options(registry))
    expect(plan.requests.map((r) => r.partnerId)).toEqual(['second-a'])
    expect(plan.run.nextTier).toEqual([])
    expect(plan.lead.deadlineAt).toEqual(new Date(NOW + 7_000))
  })

  it('stores the state and 5-digit ZIP only, and a body fingerprint only with an Idempotency-Key', async () => {
    const registry = registryOf()
    const withoutKey = planLead(await validRequest(), options(registry))
    expect(withoutKey.requests).toEqual([])
    expect(withoutKey.lead).toMatchObject({ state: 'CA', zip: '95814', bodyHash: undefined })
    const withKey = planLead(await validRequest('key-1'), options(registry))
    expect(withKey.lead).toMatchObject({ idempotencyKey: 'key-1', bodyHash: 'hash' })
  })
})

describe('intakeLead', () => {
  const rowOf = (lead: NewLead, bodyHash: string | null = lead.bodyHash ?? null): LeadRow => ({
    id: lead.id,
    searchUuid: lead.searchUuid,
    state: lead.state,
    zip: lead.zip,
    bodyHash,
    status: 'pending',
    createdAt: lead.createdAt,
    deadlineAt: lead.deadlineAt,
    completedAt: null,
    failureReason: null,
  })

  function deps(
    createLead: (lead: NewLead, requests: SentRequest[]) => Promise<CreateLeadResult>,
    get: IntakeDeps['searches']['get'] = async () => undefined,
  ) {
    return {
      registry: registryOf(partner('first-a', 'first')),
      windowMs: 12_000,
      firstLookDeadlineMs: 12_000,
      timers: { now: () => NOW },
      hashBody: (body: unknown) => `hash:${JSON.stringify(body).length}`,
      clickTokenTtlMs: 24 * 60 * 60 * 1000,
      ledger: {
        createLead: vi.fn(createLead),
        recordDuplicate: vi.fn(async () => {}),
        recordHeldApplication: vi.fn(async () => {}),
      },
      metrics: { held: vi.fn() },
      searches: { get: vi.fn(get), remember: vi.fn() },
      logger: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
      startRun: vi.fn(),
    } satisfies IntakeDeps
  }

  it('writes the lead first, then starts its fan-out and answers a pending search', async () => {
    const d = deps(async (lead) => ({ created: true, lead: rowOf(lead) }))
    const outcome = await intakeLead(d, await validRequest())
    expect(outcome.kind).toBe('created')
    const [written, requests] = d.ledger.createLead.mock.calls[0] ?? []
    expect(requests?.map((r) => r.partnerId)).toEqual(['first-a'])
    expect(d.startRun).toHaveBeenCalledWith(written?.searchUuid, expect.objectContaining({ requests }))
    expect(outcome.kind === 'created' && outcome.snapshot.pending).toEqual([
      { partnerId: 'first-a', tier: 'first' },
    ])
  })

  it('starts no fan-out when no partner is enabled', async () => {
    const d = { ...deps(async (lead) => ({ created: true, lead: rowOf(lead) })), registry: registryOf() }
    expect((await intakeLead(d, await validRequest())).kind).toBe('created')
    expect(d.startRun).not.toHaveBeenCalled()
  })

  it('answers 503 with Retry-After and sends nothing when the ledger cannot write', async () => {
    const d = deps(async () => {
      throw new LedgerError('createLead', 'timeout', true, 'no answer')
    })
    const outcome = await intakeLead(d, await validRequest())
    expect(outcome).toMatchObject({
      kind: 'refused',
      status: 503,
      code: 'upstream_unavailable',
      retryAfterSeconds: 2,
    })
    expect(d.startRun).not.toHaveBeenCalled()
    expect(d.logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'timeout' }),
      expect.stringMatching(/no partner was sent it/),
    )
  })

  it('replays the search a retried key made, with no second fan-out', async () => {
    const request = await validRequest('key-1')
    let holder: LeadRow | undefined
    const snapshot = (row: LeadRow): SearchSnapshot => ({
      lead: row,
      pending: [],
      requests: [],
      displayed: [],
    })
    const d = deps(
      async (lead) => {
        holder ??= rowOf(lead)
        return { created: false, lead: holder }
      },
      async () => (holder ? snapshot(holder) : undefined),
    )
    const replayed = await intakeLead(d, request)
    expect(replayed).toMatchObject({ kind: 'replayed', snapshot: { lead: { id: holder?.id } } })
    expect(d.searches.get).toHaveBeenCalledWith(holder?.searchUuid)
    expect(d.startRun).not.toHaveBeenCalled()
  })

  it('refuses a key reused with a different body (409), a vanished search (500), an unreadable one (503)', async () => {
    const request = await validRequest('key-1')
    const heldWith = (bodyHash?: string) => async (lead: NewLead) =>
      ({ created: false, lead: rowOf(lead, bodyHash) }) satisfies CreateLeadResult
    const conflict = await intakeLead(deps(heldWith('another')), request)
    expect(conflict).toMatchObject({ kind: 'refused', status: 409, code: 'conflict' })
    const gone = await intakeLead(deps(heldWith()), request)
    expect(gone).toMatchObject({ kind: 'refused', status: 500, code: 'internal' })
    const down = async () => {
      throw new Error('ledger down')
    }
    const unreadable = await intakeLead(deps(heldWith(), down), request)
    expect(unreadable).toMatchObject({ kind: 'refused', status: 503, retryAfterSeconds: 2 })
  })
})

describe('intakeLead: a duplicate applicant', () => {
  const hashApplicant = createApplicantHasher('a-session-secret-of-thirty-two-chars!!', { sampleSsns: true })
  const first = (createdAt: number): LeadRow => ({
    id: 'first-lead',
    searchUuid: 'first-search',
    state: 'CA',
    zip: '95814',
    bodyHash: null,
    status: 'complete',
    createdAt: new Date(createdAt),
    deadlineAt: new Date(createdAt),
    completedAt: new Date(createdAt),
    failureReason: null,
  })
  /** The ledger's answer: the window held by `lead`, claimed by `contactKey` (the same applicant's by default). */
  const deps = (
    lead: LeadRow | undefined,
    get: IntakeDeps['searches']['get'],
    answer: CreateLeadResult = {
      created: false,
      duplicate: { lead, claimedAt: new Date(NOW - 1_000), contactKey: hashApplicant(LEAD as Lead).contact },
    },
  ) => {
    let n = 0
    return {
      registry: registryOf(partner('first-a', 'first'), partner('second-a', 'second')),
      windowMs: 12_000,
      firstLookDeadlineMs: 12_000,
      timers: { now: () => NOW },
      hashBody: () => 'hash',
      hashApplicant,
      duplicateWindowMs: 30 * 86_400_000,
      clickTokenTtlMs: 60_000,
      newId: () => `id-${++n}`,
      answerAfterMs: () => 2_500,
      ledger: {
        createLead: vi.fn(async (): Promise<CreateLeadResult> => answer),
        recordDuplicate: vi.fn(async () => {}),
        recordHeldApplication: vi.fn(async () => {}),
      },
      metrics: { held: vi.fn() },
      searches: { get: vi.fn(get), remember: vi.fn() },
      logger: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
      startRun: vi.fn(),
    } satisfies IntakeDeps
  }

  it('the same contact, while its offers can be clicked: the first search under a uuid of its own, no fan-out', async () => {
    const row = first(NOW - 59_000)
    const d = deps(row, async () => ({ lead: row, pending: [], requests: [], displayed: [] }))
    const outcome = await intakeLead(d, await validRequest())
    if (outcome.kind !== 'duplicate') throw new Error(`expected a duplicate, got ${outcome.kind}`)
    // Its own uuid: its polls read the first search with links that never count as the first lead's.
    expect(outcome.snapshot.lead.searchUuid).not.toBe('first-search')
    expect(outcome.snapshot.lead.id).toBe('first-lead')
    expect(outcome.snapshot.duplicate).toEqual({ firstAppliedAt: new Date(NOW - 1_000) })
    expect(d.ledger.recordDuplicate).toHaveBeenCalledWith(
      expect.objectContaining({
        firstLeadId: 'first-lead',
        shown: true,
        receivedAt: new Date(NOW),
        searchUuid: outcome.snapshot.lead.searchUuid,
      }),
    )
    expect(d.startRun).not.toHaveBeenCalled()
  })

  it('the same contact, past the click links’ life, gone, or unreadable: 409 duplicate_applicant', async () => {
    const unreadable = async () => {
      throw new Error('ledger down')
    }
    for (const d of [
      deps(first(NOW - 60_000), async () => undefined),
      deps(undefined, async () => undefined),
      deps(first(NOW - 1_000), unreadable),
    ]) {
      expect(await intakeLead(d, await validRequest())).toMatchObject({
        kind: 'refused',
        status: 409,
        code: 'duplicate_applicant',
      })
      expect(d.ledger.recordDuplicate).toHaveBeenCalledWith(expect.objectContaining({ shown: false }))
      expect(d.startRun).not.toHaveBeenCalled()
    }
  })

  it('another contact is held for review and answered as a new application: nothing of the first search', async () => {
    const row = first(NOW - 1_000)
    const firstSearch = { lead: row, pending: [], requests: [], displayed: [] }
    // Within a day (offers clickable) and within 30 days (a 409 for the applicant): the same answer.
    for (const createdAt of [NOW - 1_000, NOW - 10 * 86_400_000]) {
      const d = deps(first(createdAt), async () => firstSearch, {
        created: false,
        duplicate: { lead: first(createdAt), claimedAt: new Date(createdAt), contactKey: 'someone-else' },
      })
      const outcome = await intakeLead(d, await validRequest())
      if (outcome.kind !== 'created') throw new Error(`expected a new search, got ${outcome.kind}`)
      const { snapshot } = outcome
      expect(snapshot.lead.searchUuid).not.toBe('first-search')
      expect(snapshot.lead.id).not.toBe('first-lead')
      expect(snapshot.duplicate).toBeUndefined()
      expect(snapshot.displayed).toEqual([])
      // The partners a new application would have been sent, awaited until its answer time.
      expect(snapshot.pending).toEqual([{ partnerId: 'first-a', tier: 'first' }])
      expect(snapshot.lead.deadlineAt).toEqual(new Date(NOW + 2_500))
      expect(d.searches.get).not.toHaveBeenCalled()
      expect(d.ledger.recordDuplicate).not.toHaveBeenCalled()
      expect(d.ledger.recordHeldApplication).toHaveBeenCalledWith(
        expect.objectContaining({
          reason: 'identity',
          firstLeadId: 'first-lead',
          searchUuid: snapshot.lead.searchUuid,
          ipAddress: CLIENT.ipAddress,
          userAgent: CLIENT.userAgent,
          applicantKey: hashApplicant(LEAD as Lead).applicant,
        }),
      )
      expect(d.metrics.held).toHaveBeenCalledWith('identity')
      expect(d.startRun).not.toHaveBeenCalled()
    }
  })

  it('an SSN past its cap of dates of birth is held for review, with its SSN key for the release', async () => {
    const d = deps(undefined, async () => undefined, { created: false, capped: true })
    const outcome = await intakeLead(d, await validRequest())
    expect(outcome.kind).toBe('created')
    expect(d.ledger.recordHeldApplication).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'ssn_cap', firstLeadId: undefined }),
    )
    expect(d.startRun).not.toHaveBeenCalled()
  })

  it('a held application the ledger cannot record is a 503: nothing sent, nothing claimed', async () => {
    const d = deps(undefined, async () => undefined, { created: false, capped: true })
    d.ledger.recordHeldApplication.mockRejectedValueOnce(
      new LedgerError('recordHeldApplication', 'timeout', true),
    )
    expect(await intakeLead(d, await validRequest())).toMatchObject({ kind: 'refused', status: 503 })
    expect(d.startRun).not.toHaveBeenCalled()
  })
})
