/**
 * @module The lease loop of one replica: every third of a lease it renews the leases of the leads it runs
 * (a lead whose lease another replica took is handed to `onLost`, and its run stops), then claims pending
 * leads whose lease ran out, whoever ran them (a replica that died, or this one before a restart), and
 * hands each to `onClaimed`. The ledger arbitrates with `FOR UPDATE SKIP LOCKED`, so two replicas never
 * claim the same lead; lease times are this replica's clock, so replicas' clocks must agree to well within
 * a lease (NTP). After a round that failed (the ledger was away), claims wait a whole lease from the first
 * round that reaches the ledger again, on this replica's own clock: an owner that lost the ledger too and
 * is alive re-asserts its leases first (a renewal extends a lease it still holds even if it ran out), so
 * an outage longer than a lease takes no lead from a live replica (docs/decisions/0116-lease-after-an-outage.md).
 * A failed renewal is not a lost lease: the owner's partner calls go on. Nor is a renewal that finds a lead
 * no longer pending while the lease this replica last gave it still runs: no replica can have claimed it
 * (claims take only leases that ran out), so this process settled it, or is settling it, itself.
 */
import type { Logger } from 'pino'
import type { Timers } from '../../http/timers.ts'
import type { ClaimedLead, Ledger } from '../../ledger/index.ts'
import { LedgerError } from '../../ledger/ledger-error.ts'
import { startRounds } from '../rounds.ts'

/** Leads claimed per round: bounds one statement; the next round takes more. */
const CLAIM_LIMIT = 50

export interface LeaseKeeperDeps {
  ledger: Pick<Ledger, 'renewLeases' | 'claimLeads' | 'ping'>
  /** This replica's id, unique per process. */
  owner: string
  leaseMs: number
  /** The rounds' schedule, and the clock of lease times and deadlines (the one intake writes them with). */
  timers: Timers
  logger: Pick<Logger, 'info' | 'warn'>
  /** Lead ids this replica runs now. */
  running(): Iterable<string>
  /** False while draining: a replica shutting down takes no new work. */
  mayClaim(): boolean
  onLost(leadId: string): void
  onClaimed(claimed: ClaimedLead): void
}

export interface LeaseKeeper {
  /** When a lease runs out for a lead created now. */
  leaseUntil(): Date
  /** Runs a round now (a retried `Idempotency-Key` of a pending lead), unless one is under way. */
  poke(): Promise<void>
  stop(): Promise<void>
}

export function startLeaseKeeper(deps: LeaseKeeperDeps): LeaseKeeper {
  const { timers, leaseMs } = deps
  const until = () => new Date(timers.now() + leaseMs)
  // Until when each lead this replica runs is known to hold its lease: the end its last successful renewal
  // (or this replica's claim) set. Leads not in it yet are judged as if their lease had run out.
  const heldUntil = new Map<string, number>()
  const renewals = leaseRenewals(deps, heldUntil, until)
  const claims = leaseClaims(deps, heldUntil, until)
  const rounds = startRounds({
    timers,
    everyMs: Math.max(1, Math.floor(leaseMs / 3)),
    logger: deps.logger,
    failure: 'second-look lease round failed; the next one retries',
    async round() {
      try {
        await renewals.renew()
        await claims.claim()
      } catch (error) {
        claims.failed(error)
        throw error
      }
    },
  })
  return { leaseUntil: until, poke: rounds.run, stop: rounds.stop }
}

/** Renews the leases of the leads this replica runs; a lead another replica claimed is stopped here. */
function leaseRenewals(deps: LeaseKeeperDeps, heldUntil: Map<string, number>, until: () => Date) {
  return {
    async renew(): Promise<void> {
      const mine = [...deps.running()]
      if (mine.length === 0) return heldUntil.clear()
      const renewedUntil = until()
      const held = new Set(await deps.ledger.renewLeases(deps.owner, mine, renewedUntil))
      const now = deps.timers.now()
      const running = new Set(deps.running())
      for (const id of mine) {
        if (held.has(id)) heldUntil.set(id, renewedUntil.getTime())
        else if (running.has(id) && !((heldUntil.get(id) ?? Number.NEGATIVE_INFINITY) >= now)) {
          deps.logger.warn(
            { leadId: id },
            'second-look lead taken over by another replica; this one stops it',
          )
          deps.onLost(id)
        }
      }
      for (const id of heldUntil.keys()) if (!running.has(id)) heldUntil.delete(id)
    },
  }
}

/**
 * Claims leads whose lease ran out, once this replica has reached the ledger for a whole lease (so live
 * owners renew first after an outage); `failed` is told of a round that failed.
 */
function leaseClaims(deps: LeaseKeeperDeps, heldUntil: Map<string, number>, until: () => Date) {
  const { timers, leaseMs } = deps
  // When this replica reached the ledger again after a failed round; -Infinity: it never lost it (a replica
  // that starts on a working ledger claims at once, so a restart takes its own leads over without delay).
  let reachedSince: number | undefined = Number.NEGATIVE_INFINITY
  // Until the ledger first answers, each claim asks it first: a ledger still being opened (PGlite at the start)
  // answers that at once, and the round ends quietly, where a claim would wait out its timeout.
  let answered = false
  return {
    async claim(): Promise<void> {
      if (!deps.mayClaim()) return
      if (!answered || reachedSince === undefined) {
        await deps.ledger.ping()
        answered = true
      }
      if (reachedSince === undefined) {
        reachedSince = timers.now()
        deps.logger.info(
          { waitMs: leaseMs },
          'second-look lease round reached the ledger again; claims wait a lease so live owners renew first',
        )
      }
      if (timers.now() - reachedSince < leaseMs) return
      const claimedUntil = until()
      const claimed = await deps.ledger.claimLeads({
        owner: deps.owner,
        now: new Date(timers.now()),
        until: claimedUntil,
        limit: CLAIM_LIMIT,
      })
      for (const lead of claimed) {
        heldUntil.set(lead.lead.id, claimedUntil.getTime())
        deps.logger.info(
          { leadId: lead.lead.id, searchUuid: lead.lead.searchUuid },
          'second-look lead taken over: its lease had run out',
        )
        deps.onClaimed(lead)
      }
    },
    failed(error: unknown): void {
      // Still opening is not an outage: no replica could have renewed through it, so nothing waits a lease.
      if (!(error instanceof LedgerError && error.code === 'opening')) reachedSince = undefined
    },
  }
}
