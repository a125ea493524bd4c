/**
 * @module README cannot drift: every fenced block carries a `<!-- readme-test: name -->` marker and is run
 * here (the React one in readme-react.test.tsx) against a real BFF, the compiled one `npm run start:prod`
 * runs, after `npm run build`. The script-tag block is a template of what `npm run snippet` prints: the
 * printed snippet must match it, then the snippet runs in a jsdom page on another origin and shows offers;
 * the CSP line must match the printed one. The server blocks import `offer-widget-server`, pointed at the
 * compiled entry the package ships.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { JSDOM, VirtualConsole } from 'jsdom'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { parseConsentTexts, parsePartnerRegistry } from '../../src/marketplace/index.ts'
import { serveSandbox } from '../../src/sandbox/index.ts'
import { testSecret } from '../support/test-secret.ts'
import {
  block,
  documentFiles,
  moduleFile,
  REPO,
  type RunningBff,
  readmeBlocks,
  startCompiledBff,
  startProdScript,
  templatePattern,
} from './support/readme-blocks.ts'

const execFileAsync = promisify(execFile)
const SERVER_ENTRY = join(REPO, 'dist/server/server/index.js')
const PUBLISHER = 'https://www.publisher.example'
const UA = 'Mozilla/5.0 (README test)'
const HANDLED = [
  'quick-start',
  'react',
  'attach',
  'ssr',
  'script-tag',
  'allowed-origins',
  'js-api',
  // Type-checked against the installed package by test/package/widget-types.test.ts.
  'loader',
  'csp',
  'production',
  'docker',
  'compose',
  'node',
  'nextjs',
  'nextjs-page',
  // Written as .env.local into the Next.js e2e's app (test/e2e/next-app.e2e.ts); parsed below.
  'nextjs-env',
  // The <offer-widget> guide's complete files, served and built by test/e2e/element-guides.e2e.ts.
  'element-html',
  'vue-vite-config',
  'vue-app',
  'worker',
  // Run in Bun, Deno and workerd by test/runtimes/ (`npm test`), the worker above in Node too.
  'bun',
  'deno',
  'worker-build',
  'workerd-config',
  'sandbox',
  'partners-file',
  'consent-texts-file',
  'partner',
  'check-partner',
  // Checked against the code by test/docs/events-placements-docs.test.ts.
  'event-field-error',
  'event-offer-click',
  'event-search-complete',
  'datalayer-clear',
  'datalayer-view-item-list',
  'datalayer-form-start',
  'measure-request',
  'placements-json',
  'placements-csv',
]

const README_TEXT = readFileSync(join(REPO, 'README.md'), 'utf8')
const scripts = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts as Record<string, string>
let bff: RunningBff

beforeAll(async () => {
  bff = await startCompiledBff({ ALLOWED_ORIGINS: PUBLISHER })
})

afterAll(async () => {
  await bff?.stop()
})

afterEach(() => {
  vi.unstubAllEnvs()
})

/** `npm run snippet -- <origin>`, parsed into its lines. */
async function snippetCommand(origin: string) {
  const { stdout } = await execFileAsync('npm', ['run', '--silent', 'snippet', '--', origin], {
    cwd: REPO,
    encoding: 'utf8',
  })
  const lines = stdout.trim().split('\n')
  const field = (label: string) =>
    (lines.find((line) => line.startsWith(label)) ?? '').slice(label.length).trim()
  // The paste-ready block runs to the first blank line; the hashes and the CSP follow it.
  const pasteLines = lines.slice(0, lines.indexOf(''))
  return {
    pasteLines,
    mountPoint: pasteLines[2] as string,
    snippet: pasteLines.at(-1) as string,
    // The alternative pinned to this build with SRI: the first loader line after the paste-ready block.
    pinnedSnippet: lines.slice(pasteLines.length).find((line) => line.startsWith('<script>')) ?? '',
    integrity: field('SRI of the bundle:'),
    cspHash: field('CSP hash of the loader:'),
    styleCspHash: field('CSP hash of the style:'),
    csp: field('Content-Security-Policy:'),
  }
}

/** Loads HTML as a publisher page on its own origin, running its scripts and the bundle they load. */
function publisherPage(html: string) {
  const errors: string[] = []
  const logs: string[] = []
  const virtualConsole = new VirtualConsole()
  virtualConsole.on('jsdomError', (error) => errors.push(String(error)))
  virtualConsole.on('error', (...args) => errors.push(args.join(' ')))
  virtualConsole.on('log', (...args) => logs.push(args.join(' ')))
  const dom = new JSDOM(html, {
    url: `${PUBLISHER}/compare.html`,
    runScripts: 'dangerously',
    resources: 'usable',
    pretendToBeVisual: true,
    virtualConsole,
    beforeParse(window) {
      // jsdom has no fetch; the page gets Node's.
      Object.assign(window, { fetch })
    },
  })
  const shadowText = () =>
    [...dom.window.document.querySelectorAll('[data-offer-widget], #offers')]
      .map((element) => element.shadowRoot?.textContent ?? '')
      .join('')
  return { dom, errors, logs, shadowText }
}

describe('README code blocks', () => {
  it('every relative link and picture in README, the changelog and docs/ names a file of the repository', () => {
    const broken: string[] = []
    for (const file of [
      ...documentFiles(),
      'CHANGELOG.md',
      ...['offer-search-api', 'partner-interface'].map((name) => `docs/${name}.md`),
    ]) {
      const text = readFileSync(join(REPO, file), 'utf8')
      const targets = [
        ...[...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((match) => match[1] as string),
        ...[...text.matchAll(/<img src="([^"]+)"/g)].map((match) => match[1] as string),
      ]
      for (const target of targets.filter((target) => !/^[a-z]+:/.test(target))) {
        if (!existsSync(join(REPO, dirname(file), target))) broken.push(`${file}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('marks every fenced block, and each marked block is run by a test', () => {
    const { blocks, unmarked } = readmeBlocks()
    expect(unmarked).toEqual([])
    expect([...blocks.keys()].sort()).toEqual([...HANDLED].sort())
  })

  it('quick start and production: the commands are this repository’s scripts', () => {
    for (const name of ['quick-start', 'production']) {
      for (const [, script] of block(name).code.matchAll(/npm (?:run )?([\w:]+)/g)) {
        if (script === 'install' || script === 'ci') continue
        expect(scripts[script as string], `npm ${script}`).toBeDefined()
      }
    }
    expect(scripts['start:prod']).toBe(
      'MALLOC_ARENA_MAX=2 node --enable-source-maps --max-semi-space-size=8 --liftoff-only dist/server/server/start-server.js',
    )
    expect(block('production').code).toContain('npm ci --omit=dev && npm run start:prod')
  })

  it('quick start: every address README lists is one `npm start` prints, and it answers', async () => {
    const listed = [
      ...README_TEXT.slice(0, README_TEXT.indexOf('## Put it on your page')).matchAll(
        /`http:\/\/127\.0\.0\.1:8787(\/[^`\s]*)`/g,
      ),
    ].map((match) => match[1] as string)
    expect(listed).toEqual(expect.arrayContaining(['/', '/demo.html', '/reports', '/sandbox/test']))
    // `/api/` is a prefix, not a page; every other address is printed at start as `<url><path>`.
    const printed = listed.filter((path) => path !== '/api/')
    await vi.waitFor(() => {
      for (const path of printed) expect(bff.output(), path).toContain(`${bff.url}${path}`)
    })
    expect((await fetch(`${bff.url}/demo.html`)).status).toBe(200)
    expect((await fetch(`${bff.url}/sandbox/test/issuers`)).status).toBe(401)
  })

  it('compose: the command runs the compose.yaml beside it (test/deploy/compose.test.ts checks the file offline)', () => {
    expect(block('compose').code).toMatch(/^BFF_MODE=sandbox docker compose up --build\b/)
    expect(existsSync(join(REPO, 'compose.yaml'))).toBe(true)
  })

  it('docker: every variable it passes is one the BFF reads, and that configuration loads', async () => {
    const code = block('docker').code
    const names = [...code.matchAll(/-e ([A-Z_]+)/g)].map((match) => match[1] as string)
    const example = readFileSync(join(REPO, '.env.example'), 'utf8')
    for (const name of names) expect(example, name).toMatch(new RegExp(`^#?\\s*${name}=`, 'm'))
    const env = Object.fromEntries(
      [...code.matchAll(/-e ([A-Z_]+)(?:=(\S+))?/g)].map((match) => [
        match[1],
        match[2] ?? testSecret(match[1] as string),
      ]),
    )
    const { loadConfig } = (await import(SERVER_ENTRY)) as typeof import('../../src/server/index.ts')
    expect(loadConfig(env).sandboxMode).toBe(false)
    const dockerfile = readFileSync(join(REPO, 'deploy/Dockerfile'), 'utf8')
    // The image runs start:prod's command: its variables as ENV lines, its node command as the CMD.
    const script = startProdScript()
    expect(script.env).toEqual({ MALLOC_ARENA_MAX: '2' })
    for (const [name, value] of Object.entries(script.env)) {
      expect(dockerfile).toMatch(new RegExp(`^ENV (.* )?${name}=${value}\\b`, 'm'))
    }
    expect(dockerfile).toContain(`CMD ["${script.command.join('", "')}"]`)
    expect(code).toContain('-p 8787:8787')
    expect(dockerfile).toMatch(/PORT=8787/)
  })

  it('script tag: the printed block matches README; pasted as printed it shows the form, with its ZIP line offers', async () => {
    const printed = await snippetCommand(bff.url)
    const readme = block('script-tag').code.replaceAll('https://offers.example.com', bff.url).split('\n')
    expect(printed.pasteLines).toHaveLength(readme.length)
    printed.pasteLines.forEach((line, i) => {
      expect(line).toMatch(templatePattern(readme[i] as string))
    })
    expect(printed.mountPoint).toBe(
      `<div class="offer-widget-slot" data-offer-widget data-endpoint="${bff.url}"></div>`,
    )
    // As printed: the reserved place, the form (no ZIP known).
    const asPrinted = publisherPage(`<!doctype html><body>${printed.pasteLines.join('\n')}</body>`)
    await vi.waitFor(() => expect(asPrinted.shadowText()).toContain('See my rates'), {
      timeout: 30_000,
      interval: 100,
    })
    expect(asPrinted.errors).toEqual([])
    asPrinted.dom.window.close()
    // With the commented mount point used instead: offers at once.
    const zipLine = (printed.pasteLines[4] as string).replace(/ -->$/, '')
    expect(zipLine).toContain('data-zip-code="94107"')
    const withZip = publisherPage(`<!doctype html><body>${zipLine}${printed.snippet}</body>`)
    await vi.waitFor(() => expect(withZip.shadowText()).toContain('View rate'), {
      timeout: 30_000,
      interval: 100,
    })
    expect(withZip.errors).toEqual([])
    withZip.dom.window.close()
  })

  it('JS API: the block mounts the widget, which completes its search', async () => {
    const printed = await snippetCommand(bff.url)
    const page = publisherPage(
      `<!doctype html><body><div id="offers"></div>${printed.snippet}<script>${block('js-api').code}</script></body>`,
    )
    await vi.waitFor(() => expect(page.logs.join('\n')).toMatch(/^\d+ offers$/m), {
      timeout: 30_000,
      interval: 100,
    })
    expect(page.shadowText()).toContain('View rate')
    expect(page.errors).toEqual([])
    page.dom.window.close()
  })

  it('CSP: the line README shows is the one printed for that origin, hash of the printed loader', async () => {
    const origin = 'https://offers.example.com'
    const printed = await snippetCommand(origin)
    const script = /^<script>(.*)<\/script>$/.exec(printed.snippet)?.[1] as string
    expect(printed.cspHash).toBe(`'sha256-${createHash('sha256').update(script).digest('base64')}'`)
    const line = block('csp').code.replace(/^Content-Security-Policy: /, '')
    // The first hash is the loader's, the second the height reservation's.
    expect(printed.csp).toBe(
      line.replace("'sha256-…'", printed.cspHash).replace("'sha256-…'", printed.styleCspHash),
    )
    const style = /^<style>(.*)<\/style>$/.exec(printed.pasteLines[1] as string)?.[1] as string
    expect(printed.styleCspHash).toBe(`'sha256-${createHash('sha256').update(style).digest('base64')}'`)
    expect(printed.integrity).toMatch(/^sha384-/)
    // The default loader follows upgrades (no SRI); the pinned one carries the bundle's hash.
    expect(printed.snippet).toContain(`"${origin}/embed/v`)
    expect(printed.pinnedSnippet).toContain(printed.integrity)
  })

  it('ALLOWED_ORIGINS: the listed page is allowed, another is refused and logged with the fix', async () => {
    const [assignment] = block('allowed-origins').code.split(' ')
    const listed = (assignment as string).replace('ALLOWED_ORIGINS=', '').split(',')
    expect(block('allowed-origins').code).toContain('npm run start:prod')
    const running = await startCompiledBff({ ALLOWED_ORIGINS: listed.join(',') })
    try {
      const preflight = (origin: string) =>
        fetch(`${running.url}/api/offer-searches`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'user-agent': UA },
        })
      for (const origin of listed) expect((await preflight(origin)).status).toBe(204)
      expect((await preflight('https://shop.example')).status).toBe(403)
      await vi.waitFor(() =>
        expect(running.output()).toContain(
          `CORS: refused a preflight from https://shop.example, which is not in ALLOWED_ORIGINS; if it is a publisher page, set ALLOWED_ORIGINS=${listed.join(',')},https://shop.example`,
        ),
      )
    } finally {
      await running.stop()
    }
  })

  describe('server package blocks', () => {
    /** The block as a module, importing the compiled entry the server package ships. */
    async function load<T>(name: string): Promise<T> {
      return loadCode<T>(block(name).code)
    }

    async function loadCode<T>(source: string): Promise<T> {
      const code = source.replaceAll("from 'offer-widget-server'", `from '${SERVER_ENTRY}'`)
      const declared = [...code.matchAll(/^const (\w+) =/gm)].map((match) => match[1])
      return (await import(moduleFile(`${code}\nexport { ${declared.join(', ')} }\n`, 'ts'))) as T
    }

    async function upstreamEnv() {
      const sandbox = await serveSandbox({ port: 0 })
      vi.stubEnv('ENGINE_TOKEN', 'sandbox-test-token')
      vi.stubEnv('ENGINE_ENV', 'test')
      vi.stubEnv('ENGINE_BASE_URL_TEST', `${sandbox.url}/test`)
      vi.stubEnv('SESSION_SECRET', testSecret('readme session'))
      vi.stubEnv('PUBLIC_BASE_URL', 'https://offers.example.com')
      vi.stubEnv('LOG_LEVEL', 'warn')
      return sandbox
    }

    const search = (headers: Record<string, string> = {}) =>
      new Request('https://offers.example.com/api/offer-searches', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-offer-widget': 'readme',
          'user-agent': UA,
          ...headers,
        },
        body: JSON.stringify({ personalInformation: { zipCode: '94107' } }),
      })

    it('attach and SSR: the publisher server creates the search for its visitor and renders its first offers', async () => {
      const key = testSecret('readme server key')
      const running = await startCompiledBff({ SERVER_API_KEYS: key })
      vi.stubEnv('OFFERS_SERVER_KEY', key)
      try {
        // The blocks as written, pointed at this BFF instead of offers.example.com.
        const code = (name: string) => block(name).code.replaceAll('https://offers.example.com', running.url)
        const { offersFor } = await loadCode<{
          offersFor: (
            request: Request,
          ) => Promise<{ attach: { uuid: string }; rateTable: { uuid: string } } | undefined>
        }>(code('attach'))
        const page = new Request('https://www.publisher.example/quotes', {
          headers: { 'user-agent': UA, 'x-forwarded-for': '81.2.69.160' },
        })
        const created = (await offersFor(page)) as { attach: { uuid: string }; rateTable: { uuid: string } }
        expect(created.attach.uuid).toBe(created.rateTable.uuid)
        // An uptime check or curl: no search, and no exception for the page to turn into a 500.
        for (const userAgent of ['curl/8.5.0', '']) {
          const check = new Request('https://www.publisher.example/quotes', {
            headers: { 'user-agent': userAgent, 'x-forwarded-for': '81.2.69.160' },
          })
          expect(await offersFor(check), userAgent).toBeUndefined()
        }
        const { widgetHtml } = await loadCode<{ widgetHtml: (search: unknown) => Promise<string> }>(
          code('ssr'),
        )
        const html = await widgetHtml(created)
        expect(html).toContain('<template shadowrootmode="open">')
        expect(html).toContain('class="ow-card"')
        expect(html).toContain(`"uuid":"${created.rateTable.uuid}"`)
      } finally {
        await running.stop()
      }
    })

    it('Node: startServer(loadConfig()) serves', async () => {
      vi.stubEnv('PORT', '0')
      vi.stubEnv('LOG_LEVEL', 'warn')
      vi.stubEnv('DATA_DIR', mkdtempSync(join(tmpdir(), 'readme-node-data-')))
      const { server } = await load<{ server: { url: string; close(): Promise<void> } }>('node')
      try {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
      } finally {
        await server.close()
      }
    })

    type Route = {
      GET: (req: Request) => Promise<Response>
      POST: (req: Request) => Promise<Response>
      bff: { close(): Promise<void> }
    }

    it('Next.js: the route module loads with no environment, as `next build` loads it', async () => {
      vi.stubEnv('ENGINE_TOKEN', '')
      vi.stubEnv('SESSION_SECRET', '')
      const route = await load<Route>('nextjs')
      // Without an upstream the first request fails, naming the variables and not a file of this repository.
      const failure = await route.POST(search()).then(
        () => undefined,
        (error: unknown) => error as Error,
      )
      expect(failure?.message).toMatch(/ENGINE_TOKEN with ENGINE_BASE_URL_TEST or ENGINE_BASE_URL_PRODUCTION/)
      expect(failure?.message).not.toMatch(/src\/server\.ts/)
      await route.bff.close()
    })

    it('Next.js: the route handlers answer an offer search and its poll', async () => {
      const sandbox = await upstreamEnv()
      const route = await load<Route>('nextjs')
      try {
        const created = await route.POST(search())
        expect(created.status).toBe(201)
        const { accessToken, rateTable } = (await created.json()) as {
          accessToken: string
          rateTable: { uuid: string }
        }
        const polled = await route.GET(
          new Request(`https://offers.example.com/api/offer-searches/${rateTable.uuid}`, {
            headers: { 'x-offer-access-token': accessToken, 'user-agent': UA },
          }),
        )
        expect(polled.status).toBe(200)
      } finally {
        await route.bff.close()
        await sandbox.close()
      }
    })

    it('Next.js page: the block is the app/page.tsx the Next.js e2e builds and runs', () => {
      // next/headers exists only inside a Next.js app: test/e2e/next-app.e2e.ts writes this block into one,
      // with the route handler block, builds it with `next build` and checks it in Chromium.
      const e2e = readFileSync(join(REPO, 'test/e2e/next-app.e2e.ts'), 'utf8')
      expect(e2e).toMatch(/writeFileSync\(join\(dir, 'app\/page\.tsx'\), `\$\{block\('nextjs-page'\)\.code\}/)
      expect(e2e).toMatch(/'app\/api\/\[\.\.\.path\]\/route\.ts'\), `\$\{block\('nextjs'\)\.code\}/)
      expect(block('nextjs-page').lang).toBe('tsx')
      // The visitor's request is read inside <Suspense> (cacheComponents), and a fallback says why.
      expect(block('nextjs-page').code).toMatch(/<Suspense fallback=/)
      expect(block('nextjs-page').code).not.toMatch(/export const (dynamic|runtime)/)
      expect(block('nextjs-page').code).toMatch(
        /console\.warn\(`offers: no server search[^`]*\$\{error\.message\}`\)/,
      )
      expect(block('nextjs').code).not.toMatch(/export const (dynamic|runtime)/)
    })

    it('Next.js .env.local: every line is NAME=value, and the BFF part is a configuration loadConfig takes', async () => {
      const env = Object.fromEntries(
        block('nextjs-env')
          .code.split('\n')
          .map((line) => {
            expect(line).toMatch(/^[A-Z][A-Z0-9_]*=\S+$/)
            return [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]
          }),
      )
      const { loadConfig } = (await import(SERVER_ENTRY)) as typeof import('../../src/server/index.ts')
      const config = loadConfig(env)
      expect(config.sandboxMode).toBe(false)
      // The page's key is one the BFF takes.
      expect(env.SERVER_API_KEYS?.split(',')).toContain(env.OFFERS_SERVER_KEY)
      expect(new URL(env.OFFERS_BFF_URL ?? '').origin).toBe(new URL(env.PUBLIC_BASE_URL ?? '').origin)
    })

    it('worker: its fetch answers an offer search, the client IP from cf-connecting-ip', async () => {
      const sandbox = await upstreamEnv()
      const worker = await load<{
        default: { fetch: (req: Request, env: Record<string, string | undefined>) => Promise<Response> }
      }>('worker')
      try {
        const created = await worker.default.fetch(search({ 'cf-connecting-ip': '203.0.113.9' }), process.env)
        expect(created.status).toBe(201)
        // No address to take: the BFF refuses rather than forwarding a made-up one.
        expect((await worker.default.fetch(search(), process.env)).status).toBeGreaterThanOrEqual(400)
      } finally {
        await sandbox.close()
      }
    })
  })

  it('partner registry: the YAML example is a valid registry outside sandbox mode', () => {
    const entries = parsePartnerRegistry(block('partners-file').code, {
      sandboxMode: false,
      // Every variable the example names, as an operator would set them.
      secrets: { PARTNER_ACME_TOKEN: 'token', PARTNER_ACME_REPORTS_TOKEN: 'acme-reports-token-0123456789' },
      format: 'yaml',
    })
    expect(entries.map((entry) => entry.id)).toEqual(['acme-loans'])
  })

  it('consent texts: the YAML example is a valid CONSENT_TEXTS_FILE, its previous set still accepted', () => {
    const texts = parseConsentTexts(block('consent-texts-file').code, { format: 'yaml' })
    expect(texts.served.version).toBe('2026-11')
    expect(texts.served.tcpa).toBeDefined()
    expect([...texts.fcra.values()].map((text) => text.version)).toEqual(['2026-11', '2026-01'])
  })

  describe('partner kit commands', () => {
    let partner: ChildProcess | undefined
    let partnerUrl = ''

    beforeAll(async () => {
      const [start, banner] = block('partner').code.split('\n')
      const args = (start as string)
        .replace('npx offer-widget ', '')
        .replace('--port 8788', '--port 0')
        .split(' ')
      partner = spawn(process.execPath, [join(REPO, 'bin/offer-widget.js'), ...args], {
        cwd: REPO,
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      let output = ''
      partnerUrl = await new Promise<string>((resolveUrl) => {
        partner?.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString()
          const match = /reference partner listening on (http:\/\/\S+)/.exec(output)
          if (match) resolveUrl(match[1] as string)
        })
      })
      // README's comment line is what the command prints.
      expect(banner?.replace('# ', '').replace(':8788', `:${new URL(partnerUrl).port}`)).toBe(
        `reference partner listening on ${partnerUrl}`,
      )
    })

    afterAll(() => {
      partner?.kill('SIGTERM')
    })

    const run = async (line: string) => {
      const args = line
        .replace(/\s+#.*$/, '')
        .replace('npx offer-widget ', '')
        .match(/"[^"]*"|\S+/g)
        ?.map((arg) => arg.replace(/^"|"$/g, '')) as string[]
      return execFileAsync(process.execPath, [join(REPO, 'bin/offer-widget.js'), ...args], {
        cwd: REPO,
        encoding: 'utf8',
      })
    }

    it('check-partner passes against the reference partner (step 1)', async () => {
      const line = (block('partner').code.split('\n')[2] as string).replace(
        'http://127.0.0.1:8788',
        partnerUrl,
      )
      const { stdout } = await run(line)
      expect(stdout).toMatch(/pass/i)
    })

    it('check-partner with a header, and --json for CI (step 3)', async () => {
      const [withHeader, json] = block('check-partner')
        .code.replaceAll('https://partner.example.com', partnerUrl)
        .split('\n')
      await run(withHeader as string)
      const report = JSON.parse((await run(json as string)).stdout) as { ok?: boolean; passed?: boolean }
      expect(report).toBeTypeOf('object')
    })
  })

  it('sandbox: `npm run sandbox` starts and prints its table', async () => {
    const command = block('sandbox').code.replace(/\s+#.*$/, '')
    expect(command).toBe('npm run sandbox')
    const child = spawn('npm', ['run', '--silent', 'sandbox'], {
      cwd: REPO,
      env: { PATH: process.env.PATH, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    try {
      await new Promise<void>((done, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString()
          if (/\/test/.test(output) && /\/production/.test(output)) done()
        })
        child.once('exit', (code) => reject(new Error(`npm run sandbox exited with ${code}: ${output}`)))
      })
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
    }
    expect(output).toContain('sandbox-test-token')
  })
})
