/**
 * @module Sandbox partners judged by where their names resolve, at connect time, as production's are: a name
 * the registry accepts in sandbox mode (`partnergw`, `partner.internal`: not public by name) that resolves
 * to a public address never gets a lead under sandbox rules, and one that resolves to this machine or a
 * private network still does. A stand-in resolver gives the answers (as public-lookup.test.ts's does); the
 * dispatcher forwards only to the loopback server and records any request headed anywhere else.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, type Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callPartner } from '../../../src/marketplace/fan-out/call-partner.ts'
import { type ResolveAll, sandboxOnlyLookup } from '../../../src/marketplace/fan-out/public-lookup.ts'
import { parsePartnerRegistry } from '../../../src/marketplace/registry/partner-registry.ts'

const answers: Record<string, Array<{ address: string; family: number }>> = {
  partnergw: [{ address: '93.184.216.34', family: 4 }],
  'partner.internal': [{ address: '127.0.0.1', family: 4 }],
  'mixed.internal': [
    { address: '10.0.0.7', family: 4 },
    { address: '93.184.216.34', family: 4 },
  ],
  'lan.internal': [{ address: '10.0.0.7', family: 4 }],
  'v6.internal': [{ address: '::1', family: 6 }],
}
const asked: string[] = []
const standIn: ResolveAll = (hostname, _options, callback) => {
  asked.push(hostname)
  const found = answers[hostname]
  if (found) callback(null, found)
  else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), [])
}

describe('sandboxOnlyLookup', () => {
  const lookup = sandboxOnlyLookup(standIn)
  const ask = (hostname: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; result: unknown }>((resolve) =>
      lookup(hostname, { all }, (error, address, family) =>
        resolve({ error, result: all ? address : { address, family } }),
      ),
    )

  it('refuses a name with any public address, naming the host, the address and the fix', async () => {
    for (const host of ['partnergw', 'mixed.internal']) {
      for (const all of [true, false]) {
        const { error } = await ask(host, all)
        expect(error?.code, host).toBe('ENOTPRIVATE')
        expect(error?.message).toContain(`partner host ${host} resolves to 93.184.216.34, a public address`)
        expect(error?.message).toContain('BFF_MODE=production')
      }
    }
  })

  it('passes loopback and private answers through in both shapes, and resolver errors as they are', async () => {
    expect(await ask('partner.internal', false)).toEqual({
      error: null,
      result: { address: '127.0.0.1', family: 4 },
    })
    expect(await ask('lan.internal', true)).toEqual({
      error: null,
      result: [{ address: '10.0.0.7', family: 4 }],
    })
    expect((await ask('v6.internal', false)).result).toEqual({ address: '::1', family: 6 })
    expect((await ask('nowhere.internal', true)).error?.code).toBe('ENOTFOUND')
  })
})

/** A self-signed certificate for the names the partner is reached by, and 127.0.0.1. */
function certificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-lookup-tls-'))
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-days', '1', '-subj', '/CN=partner.internal'],
        ...['-addext', 'subjectAltName=DNS:partner.internal,DNS:partnergw,IP:127.0.0.1'],
        ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      ],
      { stdio: 'pipe' },
    )
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('a sandbox partner called by name', () => {
  const tls = certificate()
  const received: Array<IncomingMessage['headers']> = []
  const server = createServer(tls, (req, res) => {
    received.push(req.headers)
    req.resume()
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          status: 'approved',
          lead_id: 'gw-1',
          offers: [{ rate: 9.5, click_url: 'https://partner.example/click/1' }],
        }),
      )
    })
  })
  const agent = new Agent({ keepAliveTimeout: 1_000, connect: { ca: tls.cert } })
  let port = 0
  /** Where requests were headed that were not the loopback server: a lead sent out. */
  const outward: string[] = []
  const dispatcher = {
    dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
      const origin = String(options.origin)
      if (origin === `https://127.0.0.1:${port}`) return agent.dispatch(options, handler)
      outward.push(origin)
      throw Object.assign(new Error(`the test's network refuses ${origin}`), { code: 'EOUTWARD' })
    },
  } as unknown as Dispatcher

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await agent.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  /** The registry's entries as sandbox mode reads PARTNERS_FILE: both names pass its name check. */
  const registry = () =>
    parsePartnerRegistry(
      `partners:
  - { id: gw, name: Gateway, tier: first, endpoint: "https://partnergw:${port}/leads" }
  - { id: internal, name: Internal, tier: first, endpoint: "https://partner.internal:${port}/leads" }`,
      { sandboxMode: true, secrets: {} },
    )
  const call = (entry: ReturnType<typeof registry>[number]) =>
    callPartner(entry, '{"ssn":"123-45-6789"}', {
      dispatcher,
      timeoutMs: 5_000,
      sandboxLookup: sandboxOnlyLookup(standIn),
    })

  it('refuses at connect a name that resolves to a public address: no request leaves', async () => {
    const [gw] = registry()
    expect(gw?.sandbox).toBe(true)
    const outcome = await call(gw as NonNullable<typeof gw>)
    expect(outcome.status).toBe('error')
    expect(outcome.reason).toContain('ENOTPRIVATE')
    expect(outcome.reason).toContain('partner host partnergw resolves to 93.184.216.34, a public address')
    expect(outward).toEqual([])
    expect(received).toEqual([])
  })

  it('sends the lead to a name that resolves to 127.0.0.1, to the address it was judged by, under its own name (Host, TLS)', async () => {
    const [, internal] = registry()
    const outcome = await call(internal as NonNullable<typeof internal>)
    expect(outcome).toMatchObject({ status: 'approved', partnerLeadId: 'gw-1' })
    expect(outward).toEqual([])
    expect(received.map((headers) => headers.host)).toEqual([`partner.internal:${port}`])
  })

  it('asks no lookup of an IP literal, nor of a partner registered outside sandbox mode', async () => {
    asked.length = 0
    const literal = { id: 'lit', endpoint: `https://127.0.0.1:${port}/leads`, sandbox: true }
    expect((await call(literal as never)).status).toBe('approved')
    const production = { id: 'prod', endpoint: `https://127.0.0.1:${port}/leads` }
    expect((await call(production as never)).status).toBe('approved')
    expect(asked).toEqual([])
  })
})
