/**
 * @module What the runtime tests share: a sandbox upstream in this Node process that records the visitor each
 * search carried, a BFF recipe spawned in another runtime on a free loopback port and waited on by its
 * `/healthz` (no sleeps: every wait is a condition with a deadline), and an offer search polled until complete.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { createSandbox } from '../../../src/sandbox/index.ts'
import { block, REPO } from '../../docs/support/readme-blocks.ts'
import { testSecret } from '../../support/test-secret.ts'

export { REPO }

const SANDBOX_TOKEN = 'sandbox-test-token'
export const SERVER_ENTRY_SOURCE = join(REPO, 'src/server/index.ts')

export interface RecordingSandbox {
  url: string
  /** `sessionInformation` of every search the sandbox was asked to create, in order. */
  visitors: Array<{ ipAddress?: string; userAgent?: string }>
  close(): Promise<void>
}

/** The sandbox on a loopback port, remembering the visitor of each create it receives. */
export function startRecordingSandbox(): Promise<RecordingSandbox> {
  const sandbox = createSandbox()
  const visitors: RecordingSandbox['visitors'] = []
  const record = async (request: Request) => {
    if (request.method !== 'POST') return
    const body = (await request.clone().json()) as { sessionInformation?: RecordingSandbox['visitors'][0] }
    if (body.sessionInformation) visitors.push(body.sessionInformation)
  }
  return new Promise((resolve) => {
    const server = serve(
      {
        fetch: async (request: Request) => {
          await record(request).catch(() => undefined)
          return sandbox.app.fetch(request)
        },
        port: 0,
        hostname: '127.0.0.1',
      },
      (info) =>
        resolve({
          url: `http://127.0.0.1:${info.port}`,
          visitors,
          close: () =>
            new Promise<void>((done) => {
              if ('closeAllConnections' in server) server.closeAllConnections()
              server.close(() => done())
            }),
        }),
    )
  })
}

/**
 * Where the second look's ledger is: PostgreSQL at `DATABASE_URL` when the environment names one (CI does), else
 * PGlite in a fresh `DATA_DIR`.
 */
export const LEDGER: { name: string; env: { DATABASE_URL?: string; DATA_DIR?: string } } = process.env
  .DATABASE_URL
  ? { name: 'PostgreSQL', env: { DATABASE_URL: process.env.DATABASE_URL } }
  : { name: 'PGlite', env: { DATA_DIR: mkdtempSync(join(tmpdir(), 'runtime-ledger-')) } }

/**
 * The environment a publisher sets for a BFF pointed at an upstream (here the sandbox's `/test` API), with the
 * second look's consent texts (the docs' example file) and ledger.
 */
export function upstreamEnv(sandbox: RecordingSandbox, port: number): Record<string, string> {
  const consentTexts = join(mkdtempSync(join(tmpdir(), 'runtime-consent-')), 'consent-texts.yaml')
  writeFileSync(consentTexts, block('consent-texts-file').code)
  return {
    CONSENT_TEXTS_FILE: consentTexts,
    ...(LEDGER.env as Record<string, string>),
    // Redis (rate limits, poll coalescing) when the environment has one, as CI does.
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ENGINE_TOKEN: SANDBOX_TOKEN,
    ENGINE_ENV: 'test',
    ENGINE_BASE_URL_TEST: `${sandbox.url}/test`,
    SESSION_SECRET: testSecret('s'),
    PUBLIC_BASE_URL: 'https://offers.example.com',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
  }
}

/** A port no one listens on now (the runtime binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * A recipe's code written to a module file, `offer-widget-server` pointed at `entry`; in the system's temporary
 * folder, since Deno strips no types under node_modules.
 */
export function recipeFile(code: string, entry: string, name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'runtime-recipe-')), name)
  writeFileSync(file, code.replaceAll("from 'offer-widget-server'", `from '${entry}'`))
  return file
}

export interface RunningRuntime {
  url: string
  output(): string
  stop(): Promise<void>
}

/** Spawns `command`, then waits (bounded) until `${url}/healthz` answers 200; fails with the runtime's output. */
export async function startRuntime(
  command: string,
  args: string[],
  {
    env,
    port,
    cwd = REPO,
    deadlineMs = 60_000,
  }: { env: Record<string, string>; port: number; cwd?: string; deadlineMs?: number },
): Promise<RunningRuntime> {
  let output = ''
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + deadlineMs
  while (true) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}:\n${output}`)
    const status = await fetch(`${url}/healthz`).then(
      (response) => response.status,
      () => 0,
    )
    if (status === 200) return { url, output: () => output, stop }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${command}: /healthz did not answer 200 within ${deadlineMs} ms:\n${output}`)
    }
    await new Promise((next) => setTimeout(next, 100))
  }
}

export const VISITOR_UA = 'Mozilla/5.0 (runtime test)'

interface RateTable {
  uuid: string
  offers: unknown[]
  pendingResponses: unknown[]
}

/** POST /api/offer-searches as the widget does, then polls with the access token until the table is final. */
export async function searchUntilComplete(
  url: string,
  headers: Record<string, string> = {},
  deadlineMs = 30_000,
): Promise<{ created: Response; polls: number; rateTable: RateTable }> {
  const created = await fetch(`${url}/api/offer-searches`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-offer-widget': 'runtime-test',
      'user-agent': VISITOR_UA,
      ...headers,
    },
    body: JSON.stringify({ personalInformation: { zipCode: '94107' } }),
  })
  if (created.status !== 201)
    return { created, polls: 0, rateTable: { uuid: '', offers: [], pendingResponses: [] } }
  const { accessToken, rateTable } = (await created.json()) as { accessToken: string; rateTable: RateTable }
  let current = rateTable
  let polls = 0
  const deadline = Date.now() + deadlineMs
  while (!isComplete(current)) {
    if (Date.now() > deadline) throw new Error(`search ${rateTable.uuid} not complete after ${polls} polls`)
    // The widget's cadence: once a second (the BFF coalesces faster polls anyway).
    await new Promise((next) => setTimeout(next, 1000))
    const polled = await fetch(`${url}/api/offer-searches/${rateTable.uuid}`, {
      headers: {
        'x-offer-access-token': accessToken,
        'user-agent': VISITOR_UA,
        'x-offer-widget': 'runtime-test',
      },
    })
    if (polled.status !== 200) throw new Error(`poll answered ${polled.status}: ${await polled.text()}`)
    current = (await polled.json()) as RateTable
    polls++
  }
  return { created, polls, rateTable: current }
}

/** The offer search API's rule: the table is final when `pendingResponses` is empty. */
function isComplete(table: RateTable): boolean {
  return table.pendingResponses.length === 0
}

/** Path of a runtime's binary, installed from the npm registry as a devDependency. */
export const runtimeBin = (name: 'bun' | 'deno' | 'workerd') => join(REPO, 'node_modules/.bin', name)

/** Waits (bounded) until `/readyz` says ready: the upstream answers and the ledger is open. */
export async function untilReady(url: string, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs
  let last = ''
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/readyz`)
    last = await response.text()
    // `ready`, not only 200: a replica whose ledger still opens answers 200 `degraded`.
    if (response.status === 200 && (JSON.parse(last) as { status?: string }).status === 'ready') return
    await new Promise((next) => setTimeout(next, 200))
  }
  throw new Error(`/readyz not ready within ${deadlineMs} ms: ${last}`)
}

/** A browser's user agent: the second look refuses declared bots. */
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/**
 * A loan application through `POST /api/second-look` with the operator's FCRA text as served, then its polls
 * until no partner is pending.
 */
export async function secondLookUntilComplete(
  url: string,
  lead: Record<string, unknown>,
  deadlineMs = 30_000,
): Promise<{ created: Response; rateTable: RateTable; body: string }> {
  const headers = { 'x-offer-widget': 'runtime-test', 'user-agent': BROWSER_UA }
  const consent = (await (await fetch(`${url}/api/second-look/consent`, { headers })).json()) as {
    fcra: { text: string }
  }
  const legal = { consentsToFcra: 'true', fcraLanguage: consent.fcra.text }
  const created = await fetch(`${url}/api/second-look`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...lead, legalInformation: legal }),
  })
  const body = await created.text()
  if (created.status !== 201)
    return { created, body, rateTable: { uuid: '', offers: [], pendingResponses: [] } }
  const { accessToken, rateTable } = JSON.parse(body) as { accessToken: string; rateTable: RateTable }
  let current = rateTable
  const deadline = Date.now() + deadlineMs
  while (!isComplete(current)) {
    if (Date.now() > deadline) throw new Error(`lead ${rateTable.uuid} still pending`)
    await new Promise((next) => setTimeout(next, 1000))
    const polled = await fetch(`${url}/api/second-look/${rateTable.uuid}`, {
      headers: { ...headers, 'x-offer-access-token': accessToken },
    })
    if (polled.status !== 200) throw new Error(`poll answered ${polled.status}: ${await polled.text()}`)
    current = (await polled.json()) as RateTable
  }
  return { created, body, rateTable: current }
}

/** `/metrics`' readiness gauge of one dependency: 1 when it passed its last check. */
export async function dependencyReady(url: string, dependency: string): Promise<string | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text()
  return new RegExp(`^bff_dependency_ready\\{dependency="${dependency}"\\} (\\d)$`, 'm').exec(text)?.[1]
}
