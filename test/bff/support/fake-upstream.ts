/**
 * @module A scripted upstream on a real loopback socket, for faults the sandbox need not produce on
 * demand: each request takes the next scripted step (an answer, a reset, a hang, bad JSON).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

type Step =
  | { status: number; body?: unknown; raw?: string; headers?: Record<string, string> }
  | 'reset'
  | 'hang'
  /** Answers `answer` once `after` settles: an in-flight request the test controls. */
  | { after: Promise<unknown>; answer: Step }

interface RecordedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

export interface FakeUpstream {
  url: string
  requests: RecordedRequest[]
  /** Steps taken in order; when they run out, `fallback` answers. */
  script(...steps: Step[]): void
  fallback: (request: RecordedRequest) => Step
  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void>
  close(): Promise<void>
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const queue: Step[] = []
  const sockets = new Set<Socket>()
  const waiters: Array<() => void> = []
  const fake: FakeUpstream = {
    url: '',
    requests: [],
    script: (...steps) => {
      queue.push(...steps)
    },
    fallback: () => ({ status: 500, body: { errors: [] } }),
    received: (count) =>
      new Promise<void>((resolve) => {
        const check = () => (fake.requests.length >= count ? resolve() : waiters.push(check))
        check()
      }),
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      fake.requests.push(recorded)
      for (const waiter of waiters.splice(0)) waiter()
      const answer = (step: Step): void => {
        if (step === 'reset') {
          req.socket.destroy()
          return
        }
        if (step === 'hang') return
        if ('after' in step) {
          void step.after.then(() => answer(step.answer))
          return
        }
        const text = step.raw ?? (step.body === undefined ? '' : JSON.stringify(step.body))
        res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers })
        res.end(text)
      }
      answer(queue.shift() ?? fake.fallback(recorded))
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return fake
}

/** A valid rate table for `uuid`, as the contract expects from the upstream. */
export function rateTable(uuid: string, pending = 0) {
  const partner = {
    uuid: 'p-1',
    name: 'Partner',
    brandName: 'Brand',
    brandUuid: 'b-1',
    imageUrl: 'https://example.test/p.svg',
    description: '',
    disclaimer: 'Licensed agency.',
    supportsPreSelect: false,
    shouldDisplayPreSelect: false,
    supportsPersonalizedOffers: false,
  }
  return {
    uuid,
    leadUuid: '11111111-2222-4333-8444-555555555555',
    offers: [],
    pendingResponses: Array.from({ length: pending }, () => ({
      partner,
      offerCatalogProductTypes: ['AutomobileInsurance'],
    })),
    createdAt: '2026-03-01T12:00:00.000Z',
  }
}

export const ISSUERS = [
  { id: 'granite-mutual', name: 'Granite Mutual', logoImageUrl: 'https://example.test/g.svg' },
  { id: 'notinsured', name: 'Not insured', logoImageUrl: '' },
]

/** Collects pino lines for assertions (and for the token scan). */
export function logSink() {
  const lines: string[] = []
  return { lines, destination: { write: (line: string) => void lines.push(line) } }
}
