/**
 * @module The `<offer-widget>` guide's complete files, run as a publisher would run them, in Chromium with
 * the page on its own origin and the real BFF on another: the plain HTML page (`element-html`) served as
 * written, with the loader line `npm run snippet` prints for this BFF; and a Vue 3 app made by today's
 * `create-vite` (`--template vue-ts`, whatever `@latest` is), with the guide's `vite.config.ts`
 * (`vue-vite-config`) and `src/App.vue` (`vue-app`) put in and the loader line pasted into its
 * `index.html`, built by its own `npm run build` (vue-tsc, then Vite). Nothing is downloaded but npm
 * packages.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { block, templatePattern } from '../docs/support/readme-blocks.ts'
import { removeScratch } from '../package/support/scratch-project.ts'
import { type Browser, collectErrors, launchBrowser, screenshot } from './support/browser.ts'
import { type PublisherSetup, startPublisherSetup } from './support/publisher-origin.ts'
import { readWidget, waitForStatus } from './support/widget-page.ts'

const execFileAsync = promisify(execFile)
/** Whatever a publisher gets today: the test follows the scaffold as it changes. */
const CREATE_VITE = 'create-vite@latest'
const GUIDE_ORIGIN = 'https://offers.example.com'
const SCRATCH_TIMEOUT = 600_000

let setup: PublisherSetup
let browser: Browser
let vueDir = ''
let buildOutput = ''

/** The guide's text with the BFF of this run in place of its example origin, and the real loader line. */
function asPasted(code: string): string {
  return code
    .split('\n')
    .map((line) => {
      if (!line.includes('(function(w,d,src,sri,v){')) return line
      // The guide's line is the printed one, placeholders aside.
      const printed = setup.loader.replaceAll(setup.bff.url, GUIDE_ORIGIN)
      expect(printed).toMatch(templatePattern(line.trim()))
      return line.replace(line.trim(), setup.loader)
    })
    .join('\n')
    .replaceAll(GUIDE_ORIGIN, setup.bff.url)
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
}

beforeAll(async () => {
  setup = await startPublisherSetup()
  setup.page('/element.html', asPasted(block('element-html').code))
  // The publisher's site has its icon (a browser asks for it; a 404 would be a console error).
  setup.page('/favicon.ico', '', 'image/x-icon')

  const parent = mkdtempSync(join(tmpdir(), 'offer-widget-vue-app-'))
  vueDir = join(parent, 'vue-app')
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), CI: '1' }
  const run = (command: string, args: string[], cwd: string, more: Record<string, string> = {}) =>
    execFileAsync(command, args, { cwd, env: { ...env, ...more }, maxBuffer: 16 * 1024 * 1024 })
  await run('npx', ['--yes', CREATE_VITE, 'vue-app', '--template', 'vue-ts', '--no-interactive'], parent)
  writeFileSync(join(vueDir, 'vite.config.ts'), `${block('vue-vite-config').code}\n`)
  writeFileSync(
    join(vueDir, 'src/App.vue'),
    `${block('vue-app').code.replaceAll(GUIDE_ORIGIN, setup.bff.url)}\n`,
  )
  const index = readFileSync(join(vueDir, 'index.html'), 'utf8')
  writeFileSync(join(vueDir, 'index.html'), index.replace('</head>', `  ${setup.loader}\n  </head>`))
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], vueDir)
  const built = await run('npm', ['run', 'build'], vueDir)
  buildOutput = `${built.stdout}\n${built.stderr}`
  // Vue says "Failed to resolve component" only in a development build: the same app built so, served apart.
  await run('npx', ['vite', 'build', '--mode', 'development', '--outDir', 'dist-dev'], vueDir, {
    NODE_ENV: 'development',
  })
  for (const [out, base] of [
    ['dist', '/vue/'],
    ['dist-dev', '/vue-dev/'],
  ] as const) {
    for (const file of readdirSync(join(vueDir, out), { recursive: true, encoding: 'utf8' })) {
      const type = TYPES[file.slice(file.lastIndexOf('.'))]
      if (!type) continue
      // Vite's build refers to its assets from the site's root: each build is served under its own base.
      const body = readFileSync(join(vueDir, out, file), 'utf8').replaceAll('"/assets/', `"${base}assets/`)
      setup.page(file === 'index.html' ? base : `${base}${file}`, body, type)
    }
  }
  setup.page('/favicon.svg', readFileSync(join(vueDir, 'dist/favicon.svg'), 'utf8'), TYPES['.svg'])
  browser = await launchBrowser()
}, SCRATCH_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  await setup?.close()
  if (vueDir) removeScratch(dirname(vueDir))
})

describe('the <offer-widget> guide, as written', () => {
  it('plain HTML page: offers shown, the complete event heard', async () => {
    const page = await browser.context.newPage()
    const errors = collectErrors(page)
    const logged: string[] = []
    page.on('console', (message) => logged.push(message.text()))
    await page.goto(`${setup.publisherUrl}/element.html`)
    await waitForStatus(page, ['complete'], 'offer-widget')
    const view = await readWidget(page, 'offer-widget')
    expect(view?.carriers.length).toBeGreaterThan(0)
    await expect.poll(() => logged.find((text) => /^\d+ offers$/.test(text))).toBeDefined()
    expect(errors).toEqual([])
    await page.close()
  })

  it('Vue 3 + Vite app: builds with no warning about the element, shows offers, the complete event in Vue state, no React in its bundle', async () => {
    expect(buildOutput).not.toMatch(/offer-widget/i)
    const page = await browser.context.newPage()
    const errors = collectErrors(page)
    const warnings: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text())
    })
    for (const base of ['/vue/', '/vue-dev/']) {
      await page.goto(`${setup.publisherUrl}${base}`)
      await waitForStatus(page, ['complete'], 'offer-widget')
      const view = await readWidget(page, 'offer-widget')
      expect(view?.carriers.length, base).toBeGreaterThan(0)
      await expect.poll(() => page.textContent('#app p')).toMatch(/^\d+ offers for 94107$/)
    }
    expect(warnings.filter((text) => /offer-widget|Failed to resolve component/.test(text))).toEqual([])
    const bundle = readdirSync(join(vueDir, 'dist/assets'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(vueDir, 'dist/assets', file), 'utf8'))
      .join('\n')
    expect(bundle).not.toMatch(/react-dom|__SECRET_INTERNALS|createRoot/)
    await screenshot(page, 'element-guides-vue')
    expect(errors).toEqual([])
    await page.close()
  })
})
