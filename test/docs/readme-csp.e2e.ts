/**
 * @module README's script-tag and CSP blocks in Chromium: a publisher page on its own loopback origin
 * sends the `Content-Security-Policy` line `npm run snippet -- <BFF origin>` prints, with README's mount
 * point and the printed snippet, and the widget from the compiled BFF on another origin loads, searches,
 * shows logos and fires pixels with no CSP violation. The manifest's `loaderCspHash` (the same-origin
 * snippet's hash, which README once pointed to) blocks that snippet: the control that the check bites.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Browser, collectErrors, launchBrowser } from '../e2e/support/browser.ts'
import { readWidget, waitForStatus } from '../e2e/support/widget-page.ts'
import { block, REPO, type RunningBff, startCompiledBff } from './support/readme-blocks.ts'

const execFileAsync = promisify(execFile)

let publisher: Server
let pageOrigin = ''
let bff: RunningBff
let browser: Browser
const pages = new Map<string, { csp: string; body: string }>()

beforeAll(async () => {
  publisher = createServer((req, res) => {
    const page = pages.get(req.url ?? '')
    if (!page) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.csp })
    res.end(
      `<!doctype html><html lang="en"><head><title>Compare</title></head><body>${page.body}</body></html>`,
    )
  })
  await new Promise<void>((done) => publisher.listen(0, '127.0.0.1', done))
  pageOrigin = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}`
  bff = await startCompiledBff({ ALLOWED_ORIGINS: pageOrigin, RATE_LIMIT_POINTS: '1000' })

  const { stdout } = await execFileAsync('npm', ['run', '--silent', 'snippet', '--', bff.url], {
    cwd: REPO,
    encoding: 'utf8',
  })
  const lines = stdout.trim().split('\n')
  const csp = (lines.find((line) => line.startsWith('Content-Security-Policy: ')) ?? '').slice(25)
  // README's block: the reservation's <style>, and its commented mount point with a ZIP, used instead of
  // the one without (so the widget searches at once); then the printed loader.
  const readme = block('script-tag').code.replaceAll('https://offers.example.com', bff.url).split('\n')
  const style = readme[1] as string
  const mountLine = (readme[4] as string).replace(' -->', '')
  const snippet = lines[lines.indexOf('') - 1] as string
  pages.set('/printed.html', { csp, body: `${style}${mountLine}${snippet}` })
  const manifest = JSON.parse(readFileSync(join(REPO, 'dist/embed/manifest.json'), 'utf8')) as {
    loaderCspHash: string
  }
  const manifestHash = manifest.loaderCspHash
  pages.set('/manifest-hash.html', {
    csp: csp.replace(/'sha256-[^']+'/, manifestHash),
    body: `${style}${mountLine}${snippet}`,
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await bff?.stop()
  await new Promise((done) => publisher?.close(done))
})

describe('README CSP line in Chromium', () => {
  it('lets the widget load from the BFF, search, show logos and fire pixels', async () => {
    const page = await browser.context.newPage()
    const errors = collectErrors(page)
    const images: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'image') images.push(request.url())
    })
    await page.goto(`${pageOrigin}/printed.html`)
    await waitForStatus(page, ['complete'])
    expect((await readWidget(page))?.carriers.length).toBeGreaterThan(0)
    // Logos and pixels were requested from the BFF's sandbox, and the pixels reached its sink.
    expect(images).toContainEqual(expect.stringContaining('/sandbox/logos/'))
    const hits = (await (await fetch(`${bff.url}/sandbox/pixels/hits`)).json()) as Record<string, number>
    expect(Object.keys(hits).length).toBeGreaterThan(0)
    // No CSP violation. (The pixels are CORS image requests, `crossOrigin = 'anonymous'`; the sandbox sink
    // sends no Access-Control-Allow-Origin, so Chromium logs them as failed loads after they were counted.)
    expect(errors.filter((error) => /Content Security Policy|Refused to/i.test(error))).toEqual([])
    await page.close()
  })

  it("with the manifest's same-origin hash instead, the printed snippet is blocked", async () => {
    const page = await browser.context.newPage()
    const errors = collectErrors(page)
    await page.goto(`${pageOrigin}/manifest-hash.html`)
    await page.waitForFunction(() => document.readyState === 'complete')
    expect(await page.evaluate(() => 'OfferWidget' in window)).toBe(false)
    expect(errors.join('\n')).toMatch(/Content Security Policy/)
    await page.close()
  })
})
