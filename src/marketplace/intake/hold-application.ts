/**
 * @module An application held for review instead of sent (docs/decisions/0106-duplicate-applicants.md):
 * another contact with an applicant's SSN and date of birth within the window (`identity`), or an SSN past
 * its cap of dates of birth (`ssn_cap`). Nothing reaches a partner and no claim is taken, so the real person
 * is never locked out by it; the operator reviews it (with the network address it came from) and may release
 * the claim. Its answer is that of any new application: a `201` whose partners are awaited for a few
 * seconds, as a lead's are, and that then ends with no offer, so whoever sent it cannot tell whether, or
 * when, that person applied.
 */
import { randomInt, randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import { heldSnapshot } from '../../ledger/held-applications.ts'
import type {
  HeldApplication,
  HeldReason,
  Ledger,
  NewLead,
  SearchSnapshot,
  SentRequest,
} from '../../ledger/index.ts'
import { LedgerError } from '../../ledger/ledger-error.ts'
import type { SearchCache } from '../../ledger/search-cache.ts'
import { type IntakeRefusal, unavailable } from './intake-refusal.ts'

/** How long a held application's partners look awaited: as long as a lead's partners take to decline. */
const ANSWER_AFTER_MS = { min: 1_500, max: 6_000 }

export interface HoldDeps {
  ledger: Pick<Ledger, 'recordHeldApplication'>
  searches: Pick<SearchCache, 'remember'>
  logger: Pick<Logger, 'warn' | 'error'>
  metrics: { held(reason: HeldReason): void }
  newId?: (() => string) | undefined
  /** Milliseconds its partners look awaited; drawn between 1.5 and 6 s (within the lead's deadline) by default. */
  answerAfterMs?: ((leadMs: number) => number) | undefined
}

export interface HeldApplicationInput {
  reason: HeldReason
  /** The lead intake planned (its uuids, state, ZIP, applicant keys and deadline); never written. */
  lead: NewLead
  /** The requests it would have sent: the partners its search shows awaited. */
  requests: readonly SentRequest[]
  firstLeadId: string | undefined
  /** The live request's address and user agent, as a consent record keeps them. */
  session: { ipAddress: string; userAgent: string }
}

/** Writes the held application and answers it as a new search; a 503 when the ledger cannot take it. */
export async function holdApplication(
  deps: HoldDeps,
  input: HeldApplicationInput,
): Promise<{ kind: 'created'; snapshot: SearchSnapshot } | IntakeRefusal> {
  const { lead, requests, reason } = input
  const receivedAt = lead.createdAt
  const leadMs = lead.deadlineAt.getTime() - receivedAt.getTime()
  const answerAfter = deps.answerAfterMs?.(leadMs) ?? defaultAnswerAfter(leadMs)
  const held: HeldApplication = {
    id: (deps.newId ?? randomUUID)(),
    searchUuid: lead.searchUuid,
    applicantKey: lead.applicant?.key ?? '',
    ssnKey: reason === 'ssn_cap' ? lead.applicant?.ssn?.key : undefined,
    firstLeadId: input.firstLeadId,
    reason,
    state: lead.state,
    zip: lead.zip,
    ipAddress: input.session.ipAddress,
    userAgent: input.session.userAgent,
    requests: requests.map(({ partnerId, tier }) => ({ partnerId, tier })),
    receivedAt,
    answerAt: new Date(receivedAt.getTime() + answerAfter),
  }
  try {
    await deps.ledger.recordHeldApplication(held)
  } catch (error) {
    deps.logger.error(
      { code: error instanceof LedgerError ? error.code : 'unknown' },
      'second-look application not held: the ledger cannot record it, so it was refused',
    )
    return unavailable('The lead could not be recorded, so it was sent to no partner. Send it again shortly.')
  }
  deps.metrics.held(reason)
  // No lead id, search uuid or applicant key: the review list has them, behind the operator's token.
  deps.logger.warn({ reason }, 'second-look application held for review and sent to no partner')
  const snapshot = heldSnapshot(held)
  deps.searches.remember(snapshot)
  return { kind: 'created', snapshot }
}

function defaultAnswerAfter(leadMs: number): number {
  const max = Math.max(ANSWER_AFTER_MS.min + 1, Math.min(ANSWER_AFTER_MS.max, leadMs))
  return randomInt(ANSWER_AFTER_MS.min, max)
}
