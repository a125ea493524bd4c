/**
 * @module Test helper: a real HTTP partner on 127.0.0.1 port 0 whose answer a test scripts per lead, to
 * play the deliberately broken partners the checker must catch. Starts from the reference partner's own
 * reply so each broken partner differs from a conforming one in one way only. Delays run on the given
 * timers: a test's fake clock, so a slow partner answers when the test advances the clock.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PartnerReply } from '../../../src/contract/partner.ts'
import { systemTimers, type TimerHandle, type Timers } from '../../../src/http/timers.ts'
import { answerLead } from '../../../src/partner-kit/answer-lead.ts'

export interface ScriptedAnswer {
  status?: number
  contentType?: string
  /** A string is sent as is; anything else as JSON. */
  body: unknown
  delayMs?: number
}

export interface LoopbackPartner {
  url: string
  /** Request headers and bodies received, in arrival order. */
  received: Array<{ headers: IncomingHttpHeaders; body: string }>
  /** Highest number of requests in flight at once. */
  maxInFlight: number
  /** Resolves once `count` requests in all have been received whole. */
  whenReceived(count: number): Promise<void>
  close(): Promise<void>
}

const ANSWER_OPTIONS = { secret: 'loopback-test-secret', now: new Date('2026-06-15T00:00:00Z') }

/** The reference partner's reply to `body`, for scripts to break. */
export function referenceReply(body: string): PartnerReply {
  return answerLead(JSON.parse(body), ANSWER_OPTIONS)
}

export function startLoopbackPartner(
  script: (body: string) => ScriptedAnswer,
  options: { timers?: Timers } = {},
): Promise<LoopbackPartner> {
  const clock = options.timers ?? systemTimers
  const timers = new Set<TimerHandle>()
  const waiters: Array<{ count: number; resolve: () => void }> = []
  let inFlight = 0
  const partner: LoopbackPartner = {
    url: '',
    received: [],
    maxInFlight: 0,
    whenReceived: (count) =>
      partner.received.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {},
  }
  const server = createServer((request, response) => {
    inFlight += 1
    partner.maxInFlight = Math.max(partner.maxInFlight, inFlight)
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      partner.received.push({ headers: request.headers, body })
      for (const waiter of waiters.filter((w) => w.count <= partner.received.length)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
      const answer = script(body)
      const send = () => {
        inFlight -= 1
        if (response.destroyed) return
        response.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json' })
        response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body))
      }
      if (!answer.delayMs) return send()
      const timer = clock.setTimeout(() => {
        timers.delete(timer)
        send()
      }, answer.delayMs)
      timers.add(timer)
    })
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      partner.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/leads`
      partner.close = () =>
        new Promise((done) => {
          for (const timer of timers) clock.clearTimeout(timer)
          server.closeAllConnections()
          server.close(() => done())
        })
      resolve(partner)
    })
  })
}
