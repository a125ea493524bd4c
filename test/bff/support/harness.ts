/**
 * @module Test harness: a BFF built by `createBff` in front of a real upstream on loopback (the sandbox,
 * or the scripted fake), with logs collected and every answer recorded for the token scan.
 */

import { type BffApp, type BffOptions, createBff } from '../../../src/bff/create-bff.ts'
import { createLogger } from '../../../src/bff/logger.ts'
import { serveSandbox } from '../../../src/sandbox/index.ts'
import { type Config, loadConfig } from '../../../src/server/config.ts'
import { logSink } from './fake-upstream.ts'

export const SECRET = 'test-session-secret-0123456789abcdef'
export const PEER = '203.0.113.7'
/** `PUBLIC_BASE_URL` of harness BFFs: required outside sandbox mode. */
const PUBLIC_BASE = 'https://offers.publisher.example'
export const UA = 'Mozilla/5.0 (X11; Linux x86_64) offer-widget-tests'
export const WIDGET = { 'x-offer-widget': 'test/1.0.0', 'user-agent': UA }

export interface Harness {
  app: BffApp
  config: Config
  logs: string[]
  /** Every status line, header and body the BFF answered, for the secret scans. */
  answers: string[]
  request(path: string, init?: RequestInit): Promise<Response>
  close(): Promise<void>
}

export function buildHarness(
  env: Record<string, string>,
  options: BffOptions = {},
  peer = () => PEER,
): Harness {
  const config = loadConfig({
    SESSION_SECRET: SECRET,
    LOG_LEVEL: 'debug',
    PUBLIC_BASE_URL: PUBLIC_BASE,
    ...env,
  })
  const sink = logSink()
  const app = createBff(config, {
    getSocketAddress: peer,
    logger: createLogger({ level: 'debug', destination: sink.destination }),
    ...options,
  })
  const answers: string[] = []
  return {
    app,
    config,
    logs: sink.lines,
    answers,
    async request(path, init) {
      const response = await app.request(path, init)
      const copy = response.clone()
      answers.push(`${copy.status} ${JSON.stringify([...copy.headers])} ${await copy.text()}`)
      return response
    },
    close: () => app.close(),
  }
}

/** A BFF whose upstream is the sandbox on a real loopback port, reached through undici. */
export async function sandboxHarness(
  token: string,
  env: Record<string, string> = {},
  options: BffOptions = {},
): Promise<Harness & { sandboxUrl: string }> {
  const served = await serveSandbox({
    port: 0,
    tokens: { test: [token], production: ['production-only-token'] },
  })
  const harness = buildHarness(
    { ENGINE_TOKEN: token, ENGINE_BASE_URL_TEST: `${served.url}/test`, ...env },
    options,
  )
  return {
    ...harness,
    sandboxUrl: served.url,
    close: async () => {
      await harness.close()
      await served.close()
    },
  }
}

export function postJson(body: unknown, headers: Record<string, string> = WIDGET): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }
}
