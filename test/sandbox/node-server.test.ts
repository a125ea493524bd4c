import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { rateTableSchema } from '../../src/contract/offer-search.ts'
import { type ServedSandbox, serveSandbox } from '../../src/sandbox/index.ts'
import { startupBanner } from '../../src/sandbox/startup-banner.ts'
import { SANDBOX_DEFAULT_TOKENS } from '../../src/sandbox/types.ts'
import { scratchCwd } from '../support/source-process.ts'
import { headers, TOKENS, validBody } from './support/sandbox-tests.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
let served: ServedSandbox | undefined
let child: ChildProcess | undefined

afterEach(async () => {
  await served?.close()
  served = undefined
  if (child && child.exitCode === null) {
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  child = undefined
})

describe('sandbox on a real Node server over loopback', () => {
  it('serves the API over HTTP', async () => {
    served = await serveSandbox({ port: 0, tokens: TOKENS })
    const response = await fetch(`${served.url}/test/offerSearches/`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(validBody()),
    })
    expect(response.status).toBe(201)
    const table = rateTableSchema.parse(await response.json())
    const pixel = table.offers[0]?.impressionTrackingPixelUrls?.[0] as string
    expect(pixel.startsWith(`${served.url}/pixels/`)).toBe(true)
    expect((await fetch(pixel)).status).toBe(200)
    expect(await (await fetch(`${served.url}/pixels/hits`)).json()).toEqual({ [pixel]: 1 })
  })

  it('connection reset fault: the socket is destroyed, the client sees a network error, the server lives on', async () => {
    served = await serveSandbox({ port: 0, tokens: TOKENS, faults: { resetRate: 1 } })
    const url = `${served.url}/test/leads/autoInsurance/issuers`
    const error = await fetch(url, { headers: headers() }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(TypeError)
    expect(String((error as TypeError).cause)).toMatch(/other side closed|socket|ECONNRESET/i)
    served.sandbox.setFaults({ resetRate: 0 })
    expect((await fetch(url, { headers: headers() })).status).toBe(200)
  })

  it('npm run sandbox (main.ts) reads tokens through loadConfig, listens on PORT and prints the defaults', async () => {
    const tsx = `${root}node_modules/.bin/tsx`
    child = spawn(tsx, [`${root}src/server/sandbox-main.ts`], {
      cwd: scratchCwd(),
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        HOST: '127.0.0.1',
        SANDBOX_TEST_TOKEN: 'custom-test-token-1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const started = new Promise<string>((resolve, reject) => {
      child?.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const match = /listening on (http:\/\/[^\s]+)/.exec(output)
        if (match && output.includes('00009')) resolve(match[1] as string)
      })
      child?.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString()
      })
      child?.once('exit', (code) => reject(new Error(`main.ts exited with ${code}: ${output}`)))
    })
    const url = await started
    expect(output).toContain(SANDBOX_DEFAULT_TOKENS.production)
    expect(output).not.toContain('custom-test-token-1')
    expect(output).toContain('(from SANDBOX_TEST_TOKEN)')
    const custom = await fetch(`${url}/test/leads/autoInsurance/issuers`, {
      headers: headers('test', { authorization: 'Bearer custom-test-token-1' }),
    })
    expect(custom.status).toBe(200)
    const replaced = await fetch(`${url}/test/leads/autoInsurance/issuers`, {
      headers: headers('test', { authorization: `Bearer ${SANDBOX_DEFAULT_TOKENS.test}` }),
    })
    expect(replaced.status).toBe(401)
    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
  }, 30_000)

  it('main.ts fails at start naming a bad variable', async () => {
    child = spawn(`${root}node_modules/.bin/tsx`, ['src/server/sandbox-main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(stderr).toContain('PORT')
  }, 30_000)

  it('the startup banner lists both base URLs, default tokens and every scenario', () => {
    const text = startupBanner({ url: 'http://127.0.0.1:8787', tokens: { ...SANDBOX_DEFAULT_TOKENS } })
    expect(text).toContain('http://127.0.0.1:8787/test')
    expect(text).toContain('http://127.0.0.1:8787/production')
    expect(text).toContain(SANDBOX_DEFAULT_TOKENS.test)
    expect(text).toContain('2026-02-25')
    for (const zip of ['00001', '00005', '00009']) expect(text).toContain(zip)
  })
})
