/**
 * @module The leads this process runs, from start to end: each in the background under a lease it renews
 * (`startRun`), withdrawn when intake gave up on it, taken over from a replica whose lease ran out (run
 * again, or settled on what was recorded), and drained on shutdown.
 */
import { setMaxListeners } from 'node:events'
import type { TimerHandle } from '../http/timers.ts'
import { inSpan, openSpan, SEARCH_UUID_ATTRIBUTE } from '../http/trace.ts'
import type { ClaimedLead } from '../ledger/index.ts'
import type { Winner } from './auction/auction.ts'
import { settlement } from './auction/outcomes.ts'
import {
  auction,
  type LeadRun,
  persistWrite,
  type RunLeadContext,
  recordSettled,
  runLead,
} from './fan-out/run-lead.ts'
import { planTakeover, type TakeoverPlan } from './takeover/plan-takeover.ts'
import type { LeadSealer } from './takeover/sealed-lead.ts'

const WITHDRAWN =
  'the ledger did not confirm the lead in time, so intake answered 503 and it was sent to no partner'

/**
 * What the marketplace's parts share: the leads this process runs (by search uuid, and by lead id with
 * their leases), the leads being withdrawn, the shutdown, and whether a drain has begun.
 */
export interface LeadsState {
  /** Leads running in this process, by search uuid: what `settled`, `inFlight` and the drain wait on. */
  readonly running: Map<string, Promise<void>>
  /** Leads this process runs, by lead id: what it renews leases for, and how it stops a lead it lost. */
  readonly leases: Map<string, AbortController>
  /** Leads intake gave up on while the ledger was away: never taken over while they are being withdrawn. */
  readonly withdrawing: Set<string>
  /** Aborts partner calls in flight and ends write retries: the end of a drain. */
  readonly shutdown: AbortController
  draining: boolean
  /** The one drain, once begun. */
  drained?: Promise<void>
}

/** Nothing running yet, no drain. */
export function newLeadsState(): LeadsState {
  const shutdown = new AbortController()
  // Every partner call in flight listens for shutdown: hundreds at once are expected, not a leak.
  setMaxListeners(0, shutdown.signal)
  return { running: new Map(), leases: new Map(), withdrawing: new Set(), shutdown, draining: false }
}

/** Runs a lead in the background, in a span of its own, under a lease this process renews until it ends. */
export function startRun(state: LeadsState, runCtx: RunLeadContext, searchUuid: string, run: LeadRun): void {
  const lost = new AbortController()
  state.leases.set(run.leadId, lost)
  const done = inSpan(
    'second-look lead',
    {
      'second_look.lead_id': run.leadId,
      [SEARCH_UUID_ATTRIBUTE]: searchUuid,
      'second_look.resumed': run.resumed !== undefined,
    },
    () => runLead(runCtx, { ...run, lost: lost.signal }),
  )
    .catch((error: unknown) => {
      runCtx.logger.error({ leadId: run.leadId, err: error }, 'second-look fan-out failed')
    })
    .finally(() => {
      state.running.delete(searchUuid)
      state.leases.delete(run.leadId)
    })
  state.running.set(searchUuid, done)
}

/** Writes the withdrawal of a lead intake answered 503; the keeper leaves the lead alone meanwhile. */
export function withdrawLead(state: LeadsState, runCtx: RunLeadContext, leadId: string): void {
  const { timers, logger, shutdown, writeRetryMs } = runCtx
  runCtx.metrics.lead('withdrawn')
  state.withdrawing.add(leadId)
  const at = new Date(timers.now())
  void persistWrite({ timers, logger, shutdown, writeRetryMs }, leadId, 'withdrawal', () =>
    runCtx.ledger.withdrawLead(leadId, at, WITHDRAWN),
  ).finally(() => state.withdrawing.delete(leadId))
}

/**
 * A lead the keeper claimed: run again for the partners that never answered, or settled at once on what
 * was recorded; skipped when this process runs or withdraws it already.
 */
export function takeOver(
  state: LeadsState,
  runCtx: RunLeadContext,
  open: LeadSealer['open'],
  claimed: ClaimedLead,
): void {
  const searchUuid = claimed.lead.searchUuid
  if (state.running.has(searchUuid) || state.withdrawing.has(claimed.lead.id)) return
  const plan = planTakeover(claimed, { registry: runCtx.registry, open, now: runCtx.timers.now() })
  runCtx.metrics.takeover(plan.kind === 'run' ? 'resumed' : 'settled')
  // A trace of its own (the lead's first trace was another replica's), named by the lead's ids.
  const { span, within: inTakeover } = openSpan(
    'second-look takeover',
    {
      'second_look.lead_id': claimed.lead.id,
      [SEARCH_UUID_ATTRIBUTE]: searchUuid,
      'second_look.takeover': plan.kind === 'run' ? 'resumed' : 'settled',
    },
    { root: true },
  )
  if (plan.kind === 'run') {
    inTakeover(() => startRun(state, runCtx, searchUuid, plan.run))
    void state.running.get(searchUuid)?.finally(() => span.end())
    return
  }
  const winners = inTakeover(() => auction(plan.bids, runCtx.policy))
  const settling = inTakeover(() =>
    settleOnRecord(runCtx, claimed.lead.id, plan, winners).finally(() => {
      state.running.delete(searchUuid)
      span.end()
    }),
  )
  state.running.set(searchUuid, settling)
}

/**
 * Settles a lead taken over on what was recorded; when that fails, its lease runs out again and the next
 * round retries.
 */
function settleOnRecord(
  runCtx: RunLeadContext,
  leadId: string,
  plan: Extract<TakeoverPlan, { kind: 'settle' }>,
  winners: readonly Winner[],
): Promise<void> {
  const { logger } = runCtx
  return runCtx.ledger
    .closeTier(
      plan.replies,
      {
        kind: 'settle',
        ...settlement(plan.bids, winners),
        completedAt: new Date(runCtx.timers.now()),
      },
      leadId,
    )
    .then(
      () => {
        recordSettled(runCtx.metrics, winners)
        logger.warn({ leadId, reason: plan.reason }, 'second-look lead settled on what was recorded')
      },
      (error: unknown) => logger.warn({ leadId, err: error }, 'settling a lead taken over failed'),
    )
}

/**
 * The drain (`Marketplace.drain`), once: intake refuses from now on, leads in flight get `timeoutMs` to
 * finish, then the shutdown cuts their partner calls; resolves when the keeper and the retention sweep have
 * stopped and every lead has been written.
 */
export function drainLeads(
  state: LeadsState,
  background: { stop(): Promise<void> },
  runCtx: Pick<RunLeadContext, 'timers' | 'logger'>,
  timeoutMs: number,
): Promise<void> {
  const { running, shutdown } = state
  const { timers, logger } = runCtx
  state.draining = true
  state.drained ??= (async () => {
    if (running.size > 0 && timeoutMs > 0 && !shutdown.signal.aborted) {
      logger.info({ leads: running.size, timeoutMs }, 'draining second-look leads in flight')
      let timer: TimerHandle | undefined
      const cut = new Promise<void>((resolve) => {
        timer = timers.setTimeout(resolve, timeoutMs)
      })
      await Promise.race([Promise.all(running.values()), cut])
      timers.clearTimeout(timer)
    }
    shutdown.abort()
    await background.stop()
    await Promise.all(running.values())
  })()
  return state.drained
}
