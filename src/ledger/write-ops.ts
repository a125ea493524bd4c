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

/** Characters an offer's free text and links add to a statement (its fixed columns: `ROW_CHARS`). */
const ROW_CHARS = 200

/**
 * About how many characters `op` adds to its statement's JSON parameters: what bounds a flush's size, so
 * that replies of partners that send hundreds of KB are written a few at a time (PGlite runs a statement on
 * the event loop, so one statement of five 240 KB replies held it for over 100 ms).
 */
export function opWeight(op: Op): number {
  if (op.kind === 'reply') return replyWeight(op.reply)
  if (op.kind === 'close') return op.replies.reduce((sum, reply) => sum + replyWeight(reply), ROW_CHARS)
  if (op.kind === 'search') return op.events.length * ROW_CHARS
  return ROW_CHARS * (1 + op.requests.length)
}

function replyWeight(reply: ReplyRecord): number {
  let chars = ROW_CHARS
  for (const offer of reply.offers) {
    chars += ROW_CHARS + offer.clickUrl.length + (offer.offerDetails?.length ?? 0)
    chars += (offer.name?.length ?? 0) + (offer.displayName?.length ?? 0) + (offer.logoSrc?.length ?? 0)
  }
  return chars
}
