/**
 * @module Lead intake as plain functions, behind `POST /second-look`: read the request into a lead with the
 * live session (`readLeadRequest`), plan its first tier and deadline (`planLead`), then write it ahead of
 * any partner call and start its fan-out (`intakeLead`). Each refusal is returned as the answer to send,
 * so the route only translates it.
 *
 * Write-ahead: a lead reaches partners only once it and its requests are committed. When the ledger cannot
 * write (down, or slower than its timeout) the answer is 503 with `Retry-After` and nothing is sent; a retry
 * with the same `Idempotency-Key` is then a fresh submit.
 */

import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import { applicantProblems } from '../../contract/applicant-bounds.ts'
import { toFieldIssues } from '../../contract/common.ts'
import {
  type Lead,
  type LeadInput,
  leadInputSchema,
  leadSessionInformationSchema,
} from '../../contract/partner.ts'
import { parseJsonBounded } from '../../http/json-body.ts'
import type { Clock } from '../../http/timers.ts'
import { annotate, tagSearch } from '../../http/trace.ts'
import type {
  ApplicantClaim,
  CreateLeadResult,
  LeadRow,
  Ledger,
  NewConsentRecord,
  NewLead,
  SearchSnapshot,
  SentRequest,
} from '../../ledger/index.ts'
import { LedgerError } from '../../ledger/ledger-error.ts'
import type { SearchCache } from '../../ledger/search-cache.ts'
import type { OperatorConsentTexts } from '../consent/consent-texts.ts'
import { consentRecordOf, matchConsentTexts, partnerLeadOf } from '../consent/lead-consent.ts'
import { type LeadRun, partnerWindowMs } from '../fan-out/run-lead.ts'
import type { PartnerRegistryEntry } from '../registry/partner-registry.ts'
import { leadBands } from '../reports/lead-bands.ts'
import {
  answerDuplicate,
  type DuplicateAnswer,
  type DuplicateDeps,
  sameApplicant,
} from './answer-duplicate.ts'
import type { ApplicantHasher } from './applicant-key.ts'
import { type HoldDeps, holdApplication } from './hold-application.ts'
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY } from './idempotency.ts'
import { type IntakeRefusal, refuse, unavailable } from './intake-refusal.ts'

export type { IntakeRefusal } from './intake-refusal.ts'

/** Nesting a lead can need (object, section, value) with room to spare. */
const LEAD_MAX_DEPTH = 8

/** A well-formed lead request: the lead partners are sent, its consent record, and what idempotency needs. */
export interface LeadRequest {
  kind: 'lead'
  lead: Lead
  /** Proof of the consent the lead was given with, written with it. */
  consent: NewConsentRecord
  /** The parsed body as sent: what the `Idempotency-Key` fingerprint covers. */
  body: unknown
  idempotencyKey: string | undefined
}

export interface LeadRequestInput {
  idempotencyKey: string | undefined
  /** Read only once the key is known to be well-formed. */
  bodyText(): Promise<string>
  /** The live request's IP and user agent (the BFF's client identity); read only for a valid lead. */
  identity(): unknown
  /** The operator's texts a lead's must be; undefined when none are configured (no lead is taken). */
  consentTexts: OperatorConsentTexts | undefined
  /** The `X-Offer-Widget` header: the widget's version, kept in the consent record. */
  widgetHeader?: string | undefined
  /** Now, to judge the applicant's age. */
  now: number
  /** The SSA's advertising range is accepted as an SSN (sandbox mode's sample applicants). */
  sampleSsns: boolean
  logger: Pick<Logger, 'error'>
}

/**
 * The key, then the body (bounded before parsing: a lead nests at most 3 deep; a 5,000-deep array once
 * killed the fan-out), then the lead's fields, then the session, which docs/partner-interface.md says is the
 * end consumer's: anything the body says about it is ignored.
 */
export async function readLeadRequest(input: LeadRequestInput): Promise<LeadRequest | IntakeRefusal> {
  const key = input.idempotencyKey
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    return refuse(
      400,
      'bad_request',
      `${IDEMPOTENCY_HEADER} must be 1-200 characters of A-Z a-z 0-9 _ . : -`,
      [{ field: IDEMPOTENCY_HEADER, reason: 'use a UUID per submitted lead' }],
    )
  }
  const parsed = parseJsonBounded(await input.bodyText(), LEAD_MAX_DEPTH)
  if (!parsed.ok) {
    return refuse(
      400,
      'bad_request',
      `The body must be a JSON lead object (docs/partner-interface.md): ${parsed.reason}`,
      [{ field: parsed.field, reason: parsed.reason }],
    )
  }
  const fields = leadInputSchema.safeParse(parsed.value)
  if (!fields.success) {
    return refuse(
      400,
      'validation_failed',
      'The lead is invalid; fix the fields listed.',
      toFieldIssues(fields.error),
    )
  }
  const impossible = applicantProblems(fields.data, new Date(input.now), { sampleSsns: input.sampleSsns })
  if (impossible.length > 0) {
    return refuse(
      400,
      'validation_failed',
      'This applicant cannot be real, so the lead was sent to no partner; fix the fields listed.',
      impossible,
    )
  }
  return withConsent(input, fields.data, { body: parsed.value, idempotencyKey: key })
}

/**
 * The lead's texts checked against the operator's, then the live session taken: the lead partners are
 * sent, and its consent record.
 */
function withConsent(
  input: LeadRequestInput,
  fields: LeadInput,
  request: Pick<LeadRequest, 'body' | 'idempotencyKey'>,
): LeadRequest | IntakeRefusal {
  if (input.consentTexts === undefined) {
    return refuse(
      503,
      'upstream_misconfigured',
      'This server has no consent texts, so it takes no second-look lead: its operator must set CONSENT_TEXTS_FILE (docs/second-look.md).',
    )
  }
  const texts = matchConsentTexts(input.consentTexts, fields.legalInformation)
  if (!texts.ok) {
    return refuse(
      400,
      'validation_failed',
      "The lead's consent texts are not the operator's; fix the fields listed.",
      texts.errors,
    )
  }
  const session = leadSessionInformationSchema.safeParse(input.identity())
  if (!session.success) {
    input.logger.error('client identity is unusable: check the BFF trusted proxies')
    return refuse(
      400,
      'validation_failed',
      'The session of this request cannot be forwarded.',
      toFieldIssues(session.error).map((e) => ({ ...e, field: `sessionInformation.${e.field}` })),
    )
  }
  const lead = partnerLeadOf(fields, session.data, texts.texts)
  const consent = consentRecordOf(fields, lead, texts.texts, input.widgetHeader)
  return { kind: 'lead', lead, consent, ...request }
}

export interface LeadPlanOptions {
  registry: ReadonlyMap<string, PartnerRegistryEntry>
  /** Cap on each partner's window. */
  windowMs: number
  /** First look closes at this when partners are still out. */
  firstLookDeadlineMs: number
  now: number
  hashBody: (body: unknown) => string
  newId?: () => string
  /** This replica (the lead's first owner) and how long its lease lasts before another may take the lead. */
  lease?: { owner: string; ms: number }
  /** Seals the lead for a takeover (`marketplace_lead_handoffs`); without it a dead owner's lead settles on what was recorded. */
  seal?: (lead: Lead) => string
  /** The applicant's keys; with `duplicateWindowMs` over 0, a lead claims its applicant's window. */
  hashApplicant?: ApplicantHasher
  /** How long one application holds its applicant (`DUPLICATE_WINDOW_DAYS`); 0: no duplicate check. */
  duplicateWindowMs?: number
  /** Dates of birth one SSN may hold within the window (`MAX_BIRTH_DATES_PER_SSN`); 2 by default. */
  maxBirthDatesPerSsn?: number
}

/** The applicant and one correction of a mistyped date of birth. */
export const DEFAULT_MAX_BIRTH_DATES_PER_SSN = 2

/** What intake writes, and the run it starts once that is committed. */
export interface LeadPlan {
  lead: NewLead
  requests: SentRequest[]
  run: LeadRun
}

/**
 * The first tier that has enabled partners is sent now (first look, else second look); second look waits
 * for first look to return no offers. The deadline is the latest the lead can end: first look closes at its
 * deadline at the latest, then each second-look partner has its whole window.
 */
export function planLead(request: LeadRequest, options: LeadPlanOptions): LeadPlan {
  const newId = options.newId ?? randomUUID
  const windowOf = (partners: PartnerRegistryEntry[]) =>
    Math.max(0, ...partners.map((p) => partnerWindowMs(p, options.windowMs)))
  const enabled = [...options.registry.values()].filter((p) => p.enabled)
  const first = enabled.filter((p) => p.tier === 'first')
  const second = enabled.filter((p) => p.tier === 'second')
  const [startTier, nextTier] = first.length > 0 ? [first, second] : [second, []]
  const sentAt = new Date(options.now)
  const requests: SentRequest[] = startTier.map((p) => ({
    id: newId(),
    partnerId: p.id,
    tier: p.tier,
    sentAt,
  }))
  const leadMs =
    first.length > 0
      ? Math.min(options.firstLookDeadlineMs, windowOf(first)) + windowOf(second)
      : windowOf(second)
  const personal = request.lead.personalInformation
  const key = request.idempotencyKey
  const lead: NewLead = {
    id: newId(),
    searchUuid: newId(),
    state: personal.state,
    zip: personal.zipcode.slice(0, 5),
    ...leadBands(request.lead),
    placement: request.lead.placement,
    idempotencyKey: key,
    bodyHash: key === undefined ? undefined : options.hashBody(request.body),
    createdAt: sentAt,
    deadlineAt: new Date(options.now + leadMs),
    owner: options.lease?.owner,
    leaseUntil: options.lease ? new Date(options.now + options.lease.ms) : undefined,
    sealed: requests.length > 0 ? options.seal?.(request.lead) : undefined,
    applicant: applicantClaim(request.lead, options),
    consent: request.consent,
  }
  return { lead, requests, run: { lead: request.lead, leadId: lead.id, requests, nextTier } }
}

/** What the lead claims of its applicant for the window; none when the duplicate check is off. */
function applicantClaim(lead: Lead, options: LeadPlanOptions): ApplicantClaim | undefined {
  const windowMs = options.duplicateWindowMs ?? 0
  if (options.hashApplicant === undefined || windowMs <= 0) return undefined
  const keys = options.hashApplicant(lead)
  const cap = options.maxBirthDatesPerSsn ?? DEFAULT_MAX_BIRTH_DATES_PER_SSN
  return {
    key: keys.applicant,
    expiresAt: new Date(options.now + windowMs),
    contactKey: keys.contact,
    ssn: keys.ssn === undefined ? undefined : { key: keys.ssn, cap },
  }
}

export interface IntakeDeps
  extends Omit<LeadPlanOptions, 'now'>,
    Omit<DuplicateDeps, 'ledger' | 'newId'>,
    Omit<HoldDeps, 'ledger' | 'newId'> {
  ledger: Pick<Ledger, 'createLead' | 'recordDuplicate' | 'recordHeldApplication'>
  /**
   * Called with a lead whose create failed: it may still be written late (a statement that committed after
   * its caller gave up), and must then never be sent (the caller was told no partner was).
   */
  withdraw?: (leadId: string) => void
  /** Reads the search a retried key points at; remembers a new one, so its polls survive a ledger cut. */
  searches: Pick<SearchCache, 'get' | 'remember'>
  /** A retried key found its lead still pending: look now for leads whose owner died (takeover). */
  onPendingReplay?: () => Promise<void>
  logger: Pick<Logger, 'info' | 'warn' | 'error'>
  timers: Clock
  /** Starts the background fan-out of a lead just written. */
  startRun(searchUuid: string, run: LeadRun): void
}

/**
 * `created`: a new search (its fan-out started), or an application held for review, answered alike;
 * `replayed`: the search a retried `Idempotency-Key` made; `duplicate`: the same applicant's first
 * application within the window (no partner was asked).
 */
export type IntakeOutcome =
  | { kind: 'created'; snapshot: SearchSnapshot }
  | { kind: 'replayed'; snapshot: SearchSnapshot }
  | DuplicateAnswer

/** Writes the lead ahead of any partner call, then starts its fan-out; a retried key never fans out twice. */
export async function intakeLead(deps: IntakeDeps, request: LeadRequest): Promise<IntakeOutcome> {
  const plan = planLead(request, { ...deps, now: deps.timers.now() })
  let result: CreateLeadResult
  try {
    result = await deps.ledger.createLead(plan.lead, plan.requests)
  } catch (error) {
    deps.logger.error(
      { leadId: plan.lead.id, code: error instanceof LedgerError ? error.code : 'unknown' },
      'second-look lead refused: the ledger cannot record it, so no partner was sent it',
    )
    deps.withdraw?.(plan.lead.id)
    return unavailable('The lead could not be recorded, so it was sent to no partner. Send it again shortly.')
  }
  if (result.created) return started(deps, plan, result.lead)
  if ('lead' in result) return replay(deps, request, result.lead)
  return answerClaimed(deps, request, plan, result)
}

/** The lead was written: its fan-out starts, and its first polls are answered from memory. */
function started(deps: IntakeDeps, plan: LeadPlan, row: LeadRow): IntakeOutcome {
  const { requests, run } = plan
  tagSearch(row.searchUuid)
  annotate({ 'second_look.lead_id': row.id, 'second_look.partners': requests.length })
  deps.logger.info(
    {
      leadId: row.id,
      searchUuid: row.searchUuid,
      state: row.state,
      zip: row.zip,
      partners: requests.length,
    },
    'second-look lead accepted',
  )
  if (requests.length > 0) deps.startRun(row.searchUuid, run)
  const snapshot: SearchSnapshot = {
    lead: row,
    pending: requests.map((r) => ({ partnerId: r.partnerId, tier: r.tier })),
    requests: requests.map((r) => ({ ...r, status: 'pending' as const, offerCount: 0 })),
    displayed: [],
  }
  deps.searches.remember(snapshot)
  return { kind: 'created', snapshot }
}

/** A retried `Idempotency-Key`: the search it made, never a second fan-out; another body is a 409. */
async function replay(deps: IntakeDeps, request: LeadRequest, holder: LeadRow): Promise<IntakeOutcome> {
  if (holder.bodyHash !== deps.hashBody(request.body)) {
    return refuse(
      409,
      'conflict',
      `This ${IDEMPOTENCY_HEADER} was already used with a different lead; send a new key for a new lead.`,
    )
  }
  let snapshot: SearchSnapshot | undefined
  try {
    // A pending lead whose replica died is taken over (here or elsewhere) before it is read back.
    if (holder.status === 'pending') await deps.onPendingReplay?.()
    snapshot = await deps.searches.get(holder.searchUuid)
  } catch {
    return unavailable('The ledger is unavailable; send the lead again shortly.')
  }
  if (snapshot === undefined) return refuse(500, 'internal', 'The original search is gone.')
  return { kind: 'replayed', snapshot }
}

/**
 * The applicant's window is held by another lead, or the SSN has reached its cap: the same contact is the
 * same applicant, answered with the first search (or a 409); anything else is held for review and answered
 * as a new application.
 */
function answerClaimed(
  deps: IntakeDeps,
  request: LeadRequest,
  plan: LeadPlan,
  result: Extract<CreateLeadResult, { duplicate: unknown } | { capped: true }>,
): Promise<IntakeOutcome> {
  const first = 'duplicate' in result ? result.duplicate : undefined
  const contactKey = plan.lead.applicant?.contactKey
  if (first && contactKey !== undefined && sameApplicant(first, contactKey))
    return answerDuplicate(deps, first)
  return holdApplication(deps, {
    reason: first ? 'identity' : 'ssn_cap',
    lead: plan.lead,
    requests: plan.requests,
    firstLeadId: first?.lead?.id,
    session: request.lead.sessionInformation,
  })
}
