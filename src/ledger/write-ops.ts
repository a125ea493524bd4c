/**
 * @module The operations the ledger's write batch (`write-batch.ts`) queues, each with the promise its caller
 * waits on: a new lead with its first requests, a reply, the close of a tier, and the events of an insurance
 * offer search (docs/placements.md).
 */
import type { CreateLeadResult, NewLead, ReplyRecord, SearchEvent, SentRequest, TierClose } from './types.ts'

/** A create; `settled` once its caller has been answered (timed out): a queued create is then never written. */
export type LeadOp = {
  kind: 'lead'
  lead: NewLead
  requests: SentRequest[]
  done: Settle<CreateLeadResult>
  settled?: boolean
}
export type Op =
  | LeadOp
  | { kind: 'reply'; reply: ReplyRecord; done: Settle<void> }
  | { kind: 'close'; leadId: string; replies: ReplyRecord[]; next: TierClose; done: Settle<void> }
  | { kind: 'search'; events: readonly SearchEvent[]; done: Settle<void> }

export interface Settle<T> {
  resolve(value: T): void
  reject(error: unknown): void
}
