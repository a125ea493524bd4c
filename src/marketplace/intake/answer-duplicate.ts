/**
 * @module The answer to an application whose applicant (SSN and date of birth) another lead already holds
 * within the duplicate window (docs/decisions/0106-duplicate-applicants.md); no partner is asked either way.
 * The same contact (email and phone) is the same applicant: while the first application's offers can still
 * be clicked its search is the answer, under a uuid of its own whose links never count as the first lead's;
 * past that a 409 `duplicate_applicant`. Anyone else is held for review and answered like a new
 * application (`hold-application.ts`), so a stranger learns nothing of the first.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Clock } from '../../http/timers.ts'
import type { FirstApplication, Ledger, SearchSnapshot } from '../../ledger/index.ts'
import { LedgerError } from '../../ledger/ledger-error.ts'
import type { SearchCache } from '../../ledger/search-cache.ts'
import { type IntakeRefusal, refuse, unavailable } from './intake-refusal.ts'

export interface DuplicateDeps {
  ledger: Pick<Ledger, 'recordDuplicate'>
  searches: Pick<SearchCache, 'get' | 'remember'>
  /** How long a lead's offers can still be clicked: the click links' lifetime. */
  clickTokenTtlMs: number
  timers: Clock
  logger: Pick<Logger, 'info' | 'warn'>
  newId?: (() => string) | undefined
}

/** The first application's search under the duplicate's own uuid, or the refusal. */
export type DuplicateAnswer = { kind: 'duplicate'; snapshot: SearchSnapshot } | IntakeRefusal

/** True when `contactKey` applied for the application holding the window (a claim without one never is). */
export function sameApplicant(first: FirstApplication, contactKey: string): boolean {
  return first.contactKey !== null && first.contactKey === contactKey
}

export async function answerDuplicate(
  deps: DuplicateDeps,
  first: FirstApplication,
): Promise<DuplicateAnswer> {
  const now = deps.timers.now()
  let snapshot: SearchSnapshot | undefined
  if (first.lead && now < first.lead.createdAt.getTime() + deps.clickTokenTtlMs) {
    // Unreadable (the ledger is away) is answered like offers that expired: never a second fan-out.
    snapshot = await deps.searches.get(first.lead.searchUuid).catch(() => undefined)
  }
  const firstLeadId = first.lead?.id
  const shown = snapshot !== undefined
  const newId = deps.newId ?? randomUUID
  const searchUuid = shown ? newId() : undefined
  deps.logger.info(
    { firstLeadId, shown },
    'second-look lead sent to no partner: the applicant applied within the duplicate window',
  )
  const recorded = await deps.ledger
    .recordDuplicate({ id: newId(), firstLeadId, receivedAt: new Date(now), shown, searchUuid })
    .then(
      () => true,
      (error: unknown) => {
        deps.logger.warn(
          { code: error instanceof LedgerError ? error.code : 'unknown' },
          'a duplicate application could not be recorded; the duplicates report will miss it',
        )
        return false
      },
    )
  if (snapshot !== undefined && searchUuid !== undefined) {
    // Its polls read the first search under `searchUuid`: without the row they would find nothing.
    if (!recorded) return unavailable('The ledger is unavailable; send the lead again shortly.')
    const view: SearchSnapshot = {
      ...snapshot,
      lead: { ...snapshot.lead, searchUuid },
      duplicate: { firstAppliedAt: first.claimedAt },
    }
    deps.searches.remember(view)
    return { kind: 'duplicate', snapshot: view }
  }
  return refuse(
    409,
    'duplicate_applicant',
    'This applicant (the same SSN, date of birth, email and phone) already applied within the duplicate ' +
      'window (DUPLICATE_WINDOW_DAYS) and the offers of that application can no longer be shown, so this ' +
      'lead was sent to no partner. Tell the applicant they applied recently; a new application is taken ' +
      'once the window has passed.',
  )
}
