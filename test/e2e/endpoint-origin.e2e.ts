/**
 * @module The endpoint rule in Chromium (issue 44): `data-endpoint` written as a path that the URL parser
 * reads as another origin (`//host`, `/\host`, `/<tab>/host`) once sent a lead with an SSN to that origin.
 * A page on one origin, a "thief" server on another loopback port counting every request it gets (CORS
 * preflights included, and every request Chromium starts for it): with the bundle's script tag and with
 * the pasted snippet (whose early search runs before the bundle), nothing is sent there, and the page's
 * console warns, naming `data-endpoint`. A second widget after it, on the page's own BFF, has its search created
 * first: both mount in document order, so by then anything the first would send has been sent.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../../src/server/start-server.ts'
import { type Browser, launchBrowser } from './support/browser.ts'
import { requireBuild, startTestServer } from './support/server.ts'
import { waitForStatus } from './support/widget-page.ts'

let server: RunningServer
let browser: Browser
let thief: Server
const stolen: string[] = []
let thiefHost = ''
let snippet = ''
let bundle = ''

beforeAll(async () => {
  thief = createServer((req, res) => {
    stolen.push(`${req.method} ${req.url}`)
    res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' })
    res.end()
  })
  await new Promise<void>((resolve) => thief.listen(0, '127.0.0.1', resolve))
  thiefHost = `127.0.0.1:${(thief.address() as AddressInfo).port}`
  const manifest = requireBuild()
  const { snippetFor } = await import('../../src/publisher/snippet.ts')
  snippet = `<script>${snippetFor(manifest)}</script>`
  bundle = `<script async src="/embed/${manifest.file}" integrity="${manifest.integrity}" crossorigin="anonymous"></script>`
  server = await startTestServer({})
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await new Promise((resolve) => thief?.close(resolve))
})

/** Attribute values as a publisher's HTML would carry them (`&#9;` is a tab). */
const DISGUISED = {
  'protocol-relative': (host: string) => `//${host}`,
  backslash: (host: string) => `/\\${host}`,
  tab: (host: string) => `/&#9;/${host}`,
}

describe.each(Object.entries(DISGUISED))(
  'data-endpoint as a path to another origin: %s',
  (name, endpoint) => {
    for (const [way, script] of [
      ['script tag', () => bundle],
      ['snippet', () => snippet],
    ] as const) {
      it(`${way}: nothing reaches the other origin, and a console warning names data-endpoint`, async () => {
        const path = `/e2e/endpoint-${name}-${way.replace(' ', '-')}.html`
        const html = `<!doctype html><html lang="en"><head><title>Publisher</title></head><body><main>
<div data-offer-widget data-zip-code="94107" data-endpoint="${endpoint(thiefHost)}"></div>
<div id="own" data-offer-widget data-zip-code="94107"></div>${script()}</main></body></html>`
        const page = await browser.context.newPage()
        const warnings: string[] = []
        page.on('console', (message) => {
          if (message.type() === 'warning') warnings.push(message.text())
        })
        const started: string[] = []
        page.on('request', (request) => {
          if (request.url().includes(thiefHost)) started.push(request.url())
        })
        stolen.length = 0
        await page.route(`${server.url}${path}`, (route) =>
          route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
        )
        await page.goto(`${server.url}${path}`)
        // Searching: its POST has been answered, so the page's widgets have all mounted and sent what they send.
        await waitForStatus(page, ['searching', 'complete'], '#own')
        expect(started).toEqual([])
        expect(stolen).toEqual([])
        // The attribute is ignored with a warning that names it; the widget falls back to the page's own origin.
        expect(warnings.join('\n')).toMatch(/data-endpoint/)
        await page.close()
      })
    }
  },
)
