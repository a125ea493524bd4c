/**
 * Partner hosts judged by where they resolve (issue 44: `127.0.0.1.nip.io`, `localtest.me` and `lvh.me`
 * passed the registry's name check outside sandbox mode). A real connection through an undici Agent, to a
 * server on loopback reached by a public-looking name that a stand-in resolver points at it: refused before
 * anything is sent; the same name through the plain resolver connects, so the lookup is what refuses.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publicOnlyLookup, type ResolveAll } from '../../../src/marketplace/fan-out/public-lookup.ts'

const answers: Record<string, Array<{ address: string; family: number }>> = {
  'lvh.me': [{ address: '127.0.0.1', family: 4 }],
  'mixed.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ],
  'v6-loopback.example.com': [{ address: '::1', family: 6 }],
  'lender.example.com': [{ address: '93.184.216.34', family: 4 }],
}
const standIn: ResolveAll = (hostname, _options, callback) => {
  const found = answers[hostname]
  if (found) callback(null, found)
  else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), [])
}

describe('publicOnlyLookup', () => {
  const lookup = publicOnlyLookup(standIn)
  const ask = (hostname: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; result: unknown }>((resolve) =>
      lookup(hostname, { all }, (error, address, family) =>
        resolve({ error, result: all ? address : { address, family } }),
      ),
    )

  it('refuses a name with any non-public address, naming the host and the address', async () => {
    for (const [host, address] of [
      ['lvh.me', '127.0.0.1'],
      ['mixed.example.com', '10.0.0.7'],
      ['v6-loopback.example.com', '::1'],
    ] as const) {
      for (const all of [true, false]) {
        const { error } = await ask(host, all)
        expect(error?.code, host).toBe('ENOTPUBLIC')
        expect(error?.message).toContain(`partner host ${host} resolves to ${address}, not a public address`)
      }
    }
  })

  it('passes public answers through in both shapes, and resolver errors as they are', async () => {
    expect(await ask('lender.example.com', true)).toEqual({
      error: null,
      result: [{ address: '93.184.216.34', family: 4 }],
    })
    expect(await ask('lender.example.com', false)).toEqual({
      error: null,
      result: { address: '93.184.216.34', family: 4 },
    })
    expect((await ask('nowhere.example.com', true)).error?.code).toBe('ENOTFOUND')
  })
})

describe('a partner dispatcher with the lookup', () => {
  let server: Server
  let received = 0
  let port = 0
  beforeAll(async () => {
    server = createServer((_req, res) => {
      received++
      res.end('{}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('never connects to a loopback server behind a public-looking name; the plain resolver does', async () => {
    const guarded = new Agent({ connect: { lookup: publicOnlyLookup(standIn) } })
    const plain = new Agent({
      connect: {
        lookup: (hostname, options, callback) =>
          standIn(hostname, { ...options, all: true }, (error, addresses) =>
            options.all
              ? (callback as (e: unknown, a: unknown) => void)(error, addresses)
              : callback(error, addresses[0]?.address ?? '', addresses[0]?.family ?? 4),
          ),
      },
    })
    try {
      const url = `http://lvh.me:${port}/leads`
      const refused = await request(url, { method: 'POST', body: '{"ssn":"x"}', dispatcher: guarded }).catch(
        (error: Error & { code?: string }) => error,
      )
      expect(refused).toBeInstanceOf(Error)
      expect((refused as Error & { code?: string }).code).toBe('ENOTPUBLIC')
      expect(received).toBe(0)
      const reached = await request(url, { method: 'POST', body: '{}', dispatcher: plain })
      expect(reached.statusCode).toBe(200)
      await reached.body.text()
      expect(received).toBe(1)
    } finally {
      await guarded.close()
      await plain.close()
    }
  })
})
