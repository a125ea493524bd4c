/**
 * @module The BFF on a real Node server on loopback (`startServer`, what `npm start` runs): the embedded
 * sandbox as upstream over real HTTP, the socket address as the visitor's IP, static files with their
 * cache headers, and graceful shutdown (in-flight requests finish, new connections are refused).
 */

import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import { issuerListSchema, rateTableSchema } from '../../src/contract/offer-search.ts'
import { sampleLeads, startReferencePartner } from '../../src/partner-kit/index.ts'
import { loadConfig } from '../../src/server/config.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { FAKE_TOKEN } from '../bff/support/fake-harness.ts'
import { ISSUERS, logSink, startFakeUpstream } from '../bff/support/fake-upstream.ts'
import { SECRET, UA } from '../bff/support/harness.ts'
import { NOTICES } from '../marketplace/support/consent-notices.ts'
import { signal } from '../support/promises.ts'
import { http, submitSampleLead } from '../support/server-requests.ts'
import { REPO, scratchCwd, TSX_IMPORT } from '../support/source-process.ts'

function staticRoot() {
  const root = mkdtempSync(join(tmpdir(), 'bff-static-'))
  mkdirSync(join(root, 'dist/site/assets'), { recursive: true })
  mkdirSync(join(root, 'dist/embed'), { recursive: true })
  mkdirSync(join(root, 'dist/server'), { recursive: true })
  mkdirSync(join(root, 'public'))
  writeFileSync(join(root, 'dist/site/index.html'), '<!doctype html><title>playground</title>')
  writeFileSync(join(root, 'dist/site/assets/index-B0_nLMC8.js'), 'console.log(1)')
  writeFileSync(join(root, 'dist/embed/offer-widget.js'), 'console.log(2)')
  mkdirSync(join(root, 'dist/ssr'))
  writeFileSync(join(root, 'dist/ssr/render-widget-html.js'), "export const renderWidgetHtml = () => ''")
  writeFileSync(join(root, 'public/demo.html'), '<!doctype html><title>demo</title>')
  writeFileSync(join(root, 'dist/server/config.js'), 'compiled server: not served')
  writeFileSync(join(root, 'secret.txt'), 'not served')
  return root
}

describe('startServer in sandbox mode (no ENGINE_TOKEN)', () => {
  let running: RunningServer
  const logs = logSink()
  beforeAll(async () => {
    running = await startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'info' }), {
      staticRoot: staticRoot(),
      logger: createLogger({ destination: logs.destination }),
      secondLook: false,
    })
  })
  afterAll(() => running.close())

  it('says once that the embedded sandbox is the upstream', () => {
    expect(logs.lines.filter((line) => line.includes('embedded sandbox'))).toHaveLength(1)
  })

  it('serves issuers, create and poll through the sandbox over real HTTP', async () => {
    const issuers = await http(`${running.url}/api/issuers`)
    expect(issuerListSchema.parse(JSON.parse(issuers.text)).length).toBeGreaterThan(0)
    const created = await http(`${running.url}/api/offer-searches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-offer-widget': 'test', 'user-agent': UA },
      body: JSON.stringify({ personalInformation: { zipCode: '00001' } }),
    })
    expect(created.status).toBe(201)
    const { accessToken, rateTable } = createdSearchSchema.parse(JSON.parse(created.text))
    const polled = await http(`${running.url}/api/offer-searches/${rateTable.uuid}`, {
      headers: { 'x-offer-access-token': accessToken },
    })
    expect(polled.status).toBe(200)
    expect(rateTableSchema.parse(JSON.parse(polled.text)).uuid).toBe(rateTable.uuid)
    expect((await http(`${running.url}/readyz`)).status).toBe(200)
    expect((await http(`${running.url}/healthz`)).status).toBe(200)
  })

  it('serves static files with cache headers: hashed immutable, HTML no-cache, nothing outside the folders', async () => {
    const page = await http(`${running.url}/`)
    expect(page.text).toContain('playground')
    expect(page.headers['cache-control']).toBe('no-cache')
    const hashed = await http(`${running.url}/assets/index-B0_nLMC8.js`)
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const bundle = await http(`${running.url}/dist/embed/offer-widget.js`)
    expect(bundle.status).toBe(200)
    expect(bundle.headers['cross-origin-resource-policy']).toBe('cross-origin')
    expect((await http(`${running.url}/demo.html`)).text).toContain('demo')
    expect((await http(`${running.url}/secret.txt`)).status).toBe(404)
    expect((await http(`${running.url}/dist/../secret.txt`)).status).toBe(404)
    // Server code under dist/ is never served.
    expect((await http(`${running.url}/dist/ssr/render-widget-html.js`)).status).toBe(404)
    expect((await http(`${running.url}/dist/server/config.js`)).status).toBe(404)
  })

  it('exposes default process metrics too', async () => {
    expect((await http(`${running.url}/metrics`)).text).toMatch(/process_cpu_user_seconds_total/)
  })
})

/** The server with a real token against `upstreamUrl` (the test engine), no static files, no second look. */
const startOnUpstream = (upstreamUrl: string, env: Record<string, string> = {}) =>
  startServer(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      ENGINE_TOKEN: FAKE_TOKEN,
      ENGINE_BASE_URL_TEST: upstreamUrl,
      SESSION_SECRET: SECRET,
      PUBLIC_BASE_URL: 'https://offers.publisher.example',
      ...env,
    }),
    { staticRoot: '/nonexistent', secondLook: false },
  )

describe('startServer with a real upstream', () => {
  it('forwards the socket address; X-Forwarded-For only through a trusted hop', async () => {
    const upstream = await startFakeUpstream()
    upstream.fallback = () => ({ status: 201, body: { errors: [] } })
    for (const [trust, expected] of [
      [undefined, '127.0.0.1'],
      ['loopback', '198.51.100.4'],
    ] as const) {
      const running = await startOnUpstream(upstream.url, trust ? { TRUST_PROXY: trust } : {})
      upstream.requests.length = 0
      await http(`${running.url}/api/offer-searches`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-offer-widget': 'test',
          'user-agent': UA,
          'x-forwarded-for': '6.6.6.6, 198.51.100.4',
        },
        body: '{}',
      })
      expect(JSON.parse(upstream.requests[0]?.body ?? '{}').sessionInformation).toEqual({
        ipAddress: expected,
        userAgent: UA,
      })
      await running.close()
    }
    await upstream.close()
  })

  it('on close, finishes the in-flight request and refuses new connections', async () => {
    const upstream = await startFakeUpstream()
    const released = signal()
    upstream.script({ after: released.promise, answer: { status: 200, body: ISSUERS } })
    const running = await startOnUpstream(upstream.url)
    const inFlight = http(`${running.url}/api/issuers`)
    await upstream.received(1)
    const closed = running.close()
    const refused = await http(`${running.url}/healthz`).then(
      () => 'answered',
      (error: { code?: string }) => error.code,
    )
    expect(refused).toBe('ECONNREFUSED')
    released.resolve()
    const answer = await inFlight
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toEqual(ISSUERS)
    await closed
    await upstream.close()
  })
})

/**
 * `src/server/start-server.ts` as `npm start` runs it, on any free port, with only `env` (and PATH) set (`undefined`: not
 * set), in `cwd`: a fresh directory unless given, so no `.env` of the developer's applies.
 */
function npmStart(env: Record<string, string | undefined>, cwd = scratchCwd()) {
  const child = spawn(process.execPath, ['--import', TSX_IMPORT, join(REPO, 'src/server/start-server.ts')], {
    cwd,
    env: { PATH: process.env.PATH, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let stderr = ''
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout.on('data', collect)
  child.stderr.on('data', collect)
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/[0-9.:]+)/.exec(output)
      if (match) resolve(match[1] as string)
    })
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)))
  })
  listening.catch(() => {})
  return { process: child, exited, listening, output: () => output, stderr: () => stderr }
}

/** A port nothing listens on now (the kernel's pick, released). */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

describe('npm start (src/server/start-server.ts as a process)', () => {
  it('boots with the embedded sandbox and exits 0 on SIGTERM', async () => {
    const child = npmStart({
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bff-data-')),
    })
    const url = await child.listening
    const created = await http(`${url}/api/offer-searches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-offer-widget': 'test', 'user-agent': UA },
      body: '{}',
    })
    expect(created.status, child.output()).toBe(201)
    child.process.kill('SIGTERM')
    expect(await child.exited).toBe(0)
    expect(child.output()).toMatch(/embedded sandbox/)
  }, 30_000)

  it('stops at start naming PUBLIC_BASE_URL when a real token is set without it', async () => {
    const child = npmStart({
      ENGINE_TOKEN: 'a-real-token',
      ENGINE_BASE_URL_TEST: 'https://engine.example',
      SESSION_SECRET: SECRET,
    })
    expect(await child.exited).toBe(1)
    expect(child.output()).toMatch(/PUBLIC_BASE_URL: required in production mode \(ENGINE_TOKEN is set\)/)
  }, 30_000)

  it('reads .env from its working directory, under the variables already in the environment', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bff-dotenv-'))
    const port = await freePort()
    // LOG_LEVEL=silent would hide the listening line: the environment's `info` must win.
    writeFileSync(
      join(cwd, '.env'),
      `# as copied from .env.example\nPORT=${port}\nHOST=127.0.0.1\nLOG_LEVEL=silent\nDATA_DIR=./ledger-data\n`,
    )
    const child = npmStart({ PORT: undefined, LOG_LEVEL: 'info' }, cwd)
    const url = await child.listening
    expect(url).toBe(`http://127.0.0.1:${port}`)
    expect((await http(`${url}/healthz`)).status).toBe(200)
    child.process.kill('SIGTERM')
    expect(await child.exited).toBe(0)
    expect(child.output()).toContain(
      'read .env: set DATA_DIR, HOST, PORT; already in the environment, kept: LOG_LEVEL',
    )
    expect(existsSync(join(cwd, 'ledger-data'))).toBe(true)
  }, 30_000)

  it('names the port and the fix in one line, and exits 1, when the port is taken', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as AddressInfo
    try {
      const child = npmStart({ PORT: String(port), HOST: '127.0.0.1' })
      expect(await child.exited).toBe(1)
      const lines = child.stderr().trim().split('\n')
      expect(lines, child.output()).toHaveLength(1)
      expect(JSON.parse(lines[0] as string)).toMatchObject({
        level: 'fatal',
        msg: `cannot start: port ${port} on 127.0.0.1 is already in use by another process`,
        code: 'EADDRINUSE',
        variable: 'PORT',
        fix: `stop the other process on port ${port}, or choose a free port: PORT=${port + 1} npm start`,
      })
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  }, 30_000)
})

describe('links in answers', () => {
  it('are built on PUBLIC_BASE_URL, never on Host or X-Forwarded-Host', async () => {
    const running = await startServer(
      loadConfig({
        PORT: '0',
        LOG_LEVEL: 'silent',
        PUBLIC_BASE_URL: 'https://offers.publisher.example/',
        TRUST_PROXY: 'loopback',
      }),
      { staticRoot: '/nonexistent', secondLook: false },
    )
    try {
      const answer = await http(`${running.url}/api/issuers`, {
        headers: {
          'x-offer-widget': 'test',
          'user-agent': UA,
          host: 'evil.example',
          'x-forwarded-host': 'evil.example',
          'x-forwarded-proto': 'http',
        },
      })
      expect(answer.status).toBe(200)
      const issuers = issuerListSchema.parse(JSON.parse(answer.text))
      expect(issuers.length).toBeGreaterThan(0)
      for (const issuer of issuers) {
        expect(issuer.logoImageUrl).toMatch(/^https:\/\/offers\.publisher\.example\/sandbox\//)
      }
      expect(answer.text).not.toMatch(/evil\.example/)
    } finally {
      await running.close()
    }
  })
})

describe('startServer with the second-look marketplace', () => {
  it('takes a lead, fans it out to a partner over HTTP, serves the winner and redirects its click', async () => {
    const partner = await startReferencePartner({ port: 0, secret: 'server-test-partner-secret' })
    const dir = mkdtempSync(join(tmpdir(), 'bff-partners-'))
    const partnersFile = join(dir, 'partners.json')
    writeFileSync(
      partnersFile,
      JSON.stringify({
        partners: [
          { id: 'reference', name: 'Reference Lending', tier: 'second', endpoint: `${partner.url}/leads` },
        ],
      }),
    )
    // Its log is read when the lead settles without an offer: the partner's reply line says why.
    const logs = logSink()
    const running = await startServer(
      loadConfig({
        PORT: '0',
        PARTNERS_FILE: partnersFile,
        DATA_DIR: dir,
        // Even a trusted proxy's X-Forwarded-Host / -Proto never shape a link.
        TRUST_PROXY: 'loopback',
      }),
      {
        staticRoot: staticRoot(),
        secondLook: { inMemoryLedger: true },
        logger: createLogger({ destination: logs.destination }),
      },
    )
    try {
      const headers = {
        'content-type': 'application/json',
        'x-offer-widget': 'test',
        'user-agent': UA,
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      }
      const { accessToken, rateTable } = await submitSampleLead(running.url, headers)
      const poll = () =>
        http(`${running.url}/api/second-look/${rateTable.uuid}`, {
          headers: { ...headers, 'x-offer-access-token': accessToken },
        })
      const settled = await vi.waitFor(
        async () => {
          const table = rateTableSchema.parse(JSON.parse((await poll()).text))
          expect(table.pendingResponses).toEqual([])
          return table
        },
        { timeout: 10_000, interval: 50 },
      )
      expect(
        settled.offers.length,
        `settled without an offer; the server's log:\n${logs.lines.join('')}`,
      ).toBeGreaterThan(0)
      const offer = settled.offers[0]
      // The partner's click_url never reaches the browser before the click: the link is ours.
      expect(offer?.url).toMatch(new RegExp(`^${running.url}/api/clicks/`))
      expect(offer?.url).not.toMatch(/evil\.example/)
      const click = await http(offer?.url as string)
      expect(click.status).toBe(302)
      expect(click.headers.location).toMatch(/^https:\/\//)
      const page = await http(`${running.url}/reports`)
      expect(page.status).toBe(200)
    } finally {
      await running.close()
      await partner.close()
    }
  }, 30_000)

  it("serves the operator's consent texts (CONSENT_TEXTS_FILE) to another origin with no widget header, and takes only them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bff-consent-'))
    const textsFile = join(dir, 'consent.yaml')
    // JSON is YAML: the operator's texts, naming the button as the widget labels it, and the notices.
    const fcra = 'By clicking {button}, I authorize lenders to obtain my credit report.'
    writeFileSync(textsFile, JSON.stringify({ version: '2026-11', fcra, ...NOTICES }))
    const running = await startServer(
      loadConfig({
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATA_DIR: dir,
        CONSENT_TEXTS_FILE: textsFile,
        ALLOWED_ORIGINS: 'https://publisher.example',
      }),
      { staticRoot: staticRoot(), secondLook: { inMemoryLedger: true } },
    )
    try {
      const texts = await http(`${running.url}/api/second-look/consent`, {
        headers: { origin: 'https://publisher.example', 'user-agent': UA },
      })
      expect(texts.status).toBe(200)
      expect(texts.headers['access-control-allow-origin']).toBe('https://publisher.example')
      expect(texts.headers['cache-control']).toBe('public, max-age=300')
      expect(JSON.parse(texts.text)).toMatchObject({
        version: '2026-11',
        fcra: { text: 'By clicking See my loan offers, I authorize lenders to obtain my credit report.' },
        submitLabel: 'See my loan offers',
      })
      // The sample lead carries the sandbox's sample text, which is not this operator's.
      const refused = await http(`${running.url}/api/second-look`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-offer-widget': 'test', 'user-agent': UA },
        body: JSON.stringify(sampleLeads().find((sample) => sample.id === 'always-available')?.lead),
      })
      expect(refused.status).toBe(400)
      expect(JSON.parse(refused.text).errors).toContainEqual(
        expect.objectContaining({ field: 'legalInformation.fcraLanguage' }),
      )
    } finally {
      await running.close()
    }
  }, 30_000)
})
