/**
 * @module The answer to an applicant who already applied within the duplicate window
 * (docs/decisions/0106-duplicate-applicants.md): no partner is asked and no lead written. While the first
 * application's offers can still be clicked (its click links live a day by default) its search is the
 * answer; past that a 409 `duplicate_applicant`. Either way the duplicate is counted, PII-free, for the reports.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Clock } from '../../http/timers.ts'
import type { FirstApplication, Ledger, SearchSnapshot } from '../../ledger/index.ts'
import { LedgerError } from '../../ledger/ledger-error.ts'
import type { SearchCache } from '../../ledger/search-cache.ts'
import { type IntakeRefusal, refuse } from './intake-refusal.ts'

export interface DuplicateDeps {
  ledger: Pick<Ledger, 'recordDuplicate'>
  searches: Pick<SearchCache, 'get'>
  /** How long a lead's offers can still be clicked: the click links' lifetime. */
  clickTokenTtlMs: number
  timers: Clock
  logger: Pick<Logger, 'info' | 'warn'>
  newId?: (() => string) | undefined
}

/** The first application's search, or the refusal. */
export type DuplicateAnswer =
  | { kind: 'duplicate'; snapshot: SearchSnapshot; firstAppliedAt: Date }
  | IntakeRefusal

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
  deps.logger.info(
    { firstLeadId, shown },
    'second-look lead sent to no partner: the applicant applied within the duplicate window',
  )
  await deps.ledger
    .recordDuplicate({ id: (deps.newId ?? randomUUID)(), firstLeadId, receivedAt: new Date(now), shown })
    .catch((error: unknown) => {
      deps.logger.warn(
        { code: error instanceof LedgerError ? error.code : 'unknown' },
        'a duplicate application could not be counted; the duplicates report will miss it',
      )
    })
  if (snapshot !== undefined) return { kind: 'duplicate', snapshot, firstAppliedAt: first.claimedAt }
  return refuse(
    409,
    'duplicate_applicant',
    'This applicant (the same SSN and date of birth) already applied within the duplicate window ' +
      '(DUPLICATE_WINDOW_DAYS) and the offers of that application can no longer be shown, so this lead was ' +
      'sent to no partner. Tell the applicant they applied recently; a new application is taken once the ' +
      'window has passed.',
  )
}
