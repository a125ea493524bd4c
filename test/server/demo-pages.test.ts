/**
 * @module Production is not a demo: with an API token set, the Node server serves neither the playground
 * (`/`) nor the demo page (`/demo.html`, its CSS and scripts) unless `SERVE_DEMO_PAGES=true`; in sandbox
 * mode they are served as before. The script-tag bundle and the API are served either way.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'
import { serveSandbox } from '../../src/sandbox/index.ts'
import { ConfigError, loadConfig } from '../../src/server/config.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { testSecret } from '../support/test-secret.ts'

function staticRoot() {
  const root = mkdtempSync(join(tmpdir(), 'bff-demo-pages-'))
  mkdirSync(join(root, 'dist/site'), { recursive: true })
  mkdirSync(join(root, 'public'))
  writeFileSync(join(root, 'dist/site/index.html'), '<!doctype html><title>playground</title>')
  writeFileSync(join(root, 'public/demo.html'), '<!doctype html><title>demo</title>')
  writeFileSync(join(root, 'public/demo.css'), 'body{}')
  return root
}

const DEMO_PATHS = ['/', '/index.html', '/demo.html', '/demo.css']
let sandbox: Awaited<ReturnType<typeof serveSandbox>>
const root = staticRoot()

beforeAll(async () => {
  sandbox = await serveSandbox({ port: 0 })
})
afterAll(() => sandbox?.close())

const withToken = (extra: Record<string, string> = {}) => ({
  PORT: '0',
  LOG_LEVEL: 'silent',
  ENGINE_TOKEN: 'sandbox-test-token',
  ENGINE_BASE_URL_TEST: `${sandbox.url}/test`,
  SESSION_SECRET: testSecret('s'),
  PUBLIC_BASE_URL: 'https://offers.example.com',
  ...extra,
})

async function statuses(env: Record<string, string>): Promise<Record<string, number>> {
  const running: RunningServer = await startServer(loadConfig(env), {
    staticRoot: root,
    logger: createLogger({ level: 'silent' }),
    secondLook: false,
  })
  try {
    const out: Record<string, number> = {}
    for (const path of [...DEMO_PATHS, '/healthz']) out[path] = (await fetch(`${running.url}${path}`)).status
    return out
  } finally {
    await running.close()
  }
}

describe('SERVE_DEMO_PAGES', () => {
  it('defaults to on in sandbox mode and off with ENGINE_TOKEN set', () => {
    expect(loadConfig({}).serveDemoPages).toBe(true)
    expect(loadConfig(withToken()).serveDemoPages).toBe(false)
    expect(loadConfig(withToken({ SERVE_DEMO_PAGES: 'true' })).serveDemoPages).toBe(true)
    expect(loadConfig({ SERVE_DEMO_PAGES: 'false' }).serveDemoPages).toBe(false)
  })

  it('refuses a value other than true or false, naming the variable', () => {
    expect(() => loadConfig({ SERVE_DEMO_PAGES: 'yes' })).toThrow(ConfigError)
    expect(() => loadConfig({ SERVE_DEMO_PAGES: 'yes' })).toThrow(
      /SERVE_DEMO_PAGES must be "true" or "false"/,
    )
  })

  it('with a token: the playground and the demo page are 404, the API still answers', async () => {
    const got = await statuses(withToken())
    for (const path of DEMO_PATHS) expect(got[path], path).toBe(404)
    expect(got['/healthz']).toBe(200)
  })

  it('with a token and SERVE_DEMO_PAGES=true: served', async () => {
    const got = await statuses(withToken({ SERVE_DEMO_PAGES: 'true' }))
    for (const path of DEMO_PATHS) expect(got[path], path).toBe(200)
  })

  it('in sandbox mode: served', async () => {
    const got = await statuses({ PORT: '0', LOG_LEVEL: 'silent' })
    for (const path of DEMO_PATHS) expect(got[path], path).toBe(200)
  })
})
