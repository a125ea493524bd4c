/**
 * @module The Dockerfile's runtime stage, built without Docker (no daemon here): its COPY lines copy the
 * built repository into a scratch directory, its `npm ci --omit=dev` installs production dependencies
 * only, its CMD starts the BFF, which must serve the script-tag bundle and a whole search (create, then
 * poll) from the embedded sandbox, every page its log advertises in sandbox mode (the demo page, server-
 * rendered too, and the playground), answer its HEALTHCHECK, and stop cleanly on SIGTERM. CI runs this file
 * on the image's Node major too (.ci/run).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const repo = resolve(import.meta.dirname, '../..')
const UA = 'Mozilla/5.0 (deploy-layout test)'

interface RuntimeStage {
  /** Repository paths the stage copies (from the build stage: already built by `npm run build`). */
  copies: string[]
  /** Its `npm ci` command line. */
  install: string[]
  cmd: string[]
  healthcheck: string
  user: string | undefined
}

/** The last stage of the Dockerfile, read line by line (the file keeps to simple one-line instructions). */
function runtimeStage(dockerfile: string): RuntimeStage {
  const stages = dockerfile.split(/^FROM /m)
  const lines = (stages.at(-1) ?? '').split('\n').map((line) => line.trim())
  const stage: RuntimeStage = { copies: [], install: [], cmd: [], healthcheck: '', user: undefined }
  for (const line of lines) {
    const [instruction, ...rest] = line.split(/\s+/)
    if (instruction === 'COPY') {
      const args = rest.filter((arg) => !arg.startsWith('--'))
      args.pop()
      stage.copies.push(...args.map((path) => path.replace(/^\/app\//, '')))
    } else if (instruction === 'RUN' && line.includes('npm ci')) {
      stage.install = (line.slice(4).split('&&')[0] ?? '').trim().split(/\s+/)
    } else if (instruction === 'CMD') {
      stage.cmd = JSON.parse(line.slice(4)) as string[]
    } else if (instruction === 'HEALTHCHECK') {
      stage.healthcheck = line.slice(line.indexOf(' CMD ') + 5)
    } else if (instruction === 'USER') {
      stage.user = rest[0]
    }
  }
  return stage
}

const stage = runtimeStage(readFileSync(join(repo, 'deploy/Dockerfile'), 'utf8'))
let scratch = ''
let server: ChildProcess | undefined
let url = ''
let output = ''

beforeAll(async () => {
  if (!existsSync(join(repo, 'dist/server/server/start-server.js'))) {
    throw new Error('dist/server is missing: run `npm run build` before `npm run test:package`')
  }
  scratch = mkdtempSync(join(tmpdir(), 'offer-widget-deploy-'))
  for (const path of stage.copies) cpSync(join(repo, path), join(scratch, path), { recursive: true })
  const [npm, ...args] = stage.install
  execFileSync(npm as string, [...args, '--prefer-offline'], { cwd: scratch, stdio: 'pipe' })

  const [node, ...cmdArgs] = stage.cmd
  server = spawn(node === 'node' ? process.execPath : (node as string), cmdArgs, {
    cwd: scratch,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(scratch, 'data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  url = await new Promise<string>((resolveUrl, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /BFF listening on (http:\/\/[^"\s]+)/.exec(output)
      if (match) resolveUrl(match[1] as string)
    }
    server?.stdout?.on('data', onData)
    server?.stderr?.on('data', onData)
    server?.once('exit', (code) => reject(new Error(`start:prod exited with ${code}:\n${output}`)))
  })
})

afterAll(() => {
  server?.kill('SIGKILL')
  if (scratch) rmSync(scratch, { recursive: true, force: true })
})

describe('the runtime image layout, without Docker', () => {
  it('runs as a non-root user and installs production dependencies only', () => {
    expect(stage.user).toBe('node')
    expect(stage.install).toContain('--omit=dev')
    const modules = join(scratch, 'node_modules')
    for (const devOnly of ['tsx', 'vite', 'typescript', 'esbuild', 'vitest', '@vitejs/plugin-react']) {
      expect(existsSync(join(modules, devOnly)), devOnly).toBe(false)
    }
    expect(existsSync(join(scratch, 'src'))).toBe(false)
  })

  it('serves the script-tag bundle from the build', async () => {
    const manifest = (await (await fetch(`${url}/embed/manifest.json`)).json()) as { file: string }
    const bundle = await fetch(`${url}/embed/${manifest.file}`)
    expect(bundle.status).toBe(200)
    expect(await bundle.text()).toContain('OfferWidget')
  })

  it('creates a search and polls it through the embedded sandbox', async () => {
    const created = await fetch(`${url}/api/offer-searches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-offer-widget': 'deploy-test', 'user-agent': UA },
      body: JSON.stringify({ personalInformation: { zipCode: '00001' } }),
    })
    expect(created.status).toBe(201)
    const { accessToken, rateTable } = (await created.json()) as {
      accessToken: string
      rateTable: { uuid: string }
    }
    const polled = await fetch(`${url}/api/offer-searches/${rateTable.uuid}`, {
      headers: { 'x-offer-access-token': accessToken, 'user-agent': UA },
    })
    expect(polled.status).toBe(200)
    expect(((await polled.json()) as { uuid: string }).uuid).toBe(rateTable.uuid)
  })

  it('serves every page its log advertises in sandbox mode: the demo page, server-rendered too, and the playground', async () => {
    const advertised = [...output.matchAll(/(?:demo page|playground): (http:\/\/[^\s"]+)/g)].map(
      (match) => match[1] as string,
    )
    expect(advertised, output).toEqual([`${url}/demo.html`, `${url}/`])
    for (const page of [...advertised, `${url}/demo.css`, `${url}/demo-loan.js`]) {
      expect((await fetch(page)).status, page).toBe(200)
    }
    const demo = await (await fetch(`${url}/demo.html`)).text()
    expect(demo).toContain('/embed/')
    // The widget's server renderer (dist/ssr) is in the layout, and the log does not say otherwise.
    expect(output).not.toMatch(/render-widget-html\.js under/)
    const rendered = await fetch(`${url}/demo.html?ssr=1&zip=00001`, { headers: { 'user-agent': UA } })
    expect(await rendered.text()).toContain('<template shadowrootmode="open">')
  })

  it("answers the image's HEALTHCHECK command", () => {
    const port = new URL(url).port
    // Throws (non-zero exit) when /healthz does not answer 2xx.
    execFileSync('sh', ['-c', stage.healthcheck], { env: { PATH: process.env.PATH, PORT: port } })
    expect(stage.healthcheck).toContain('/healthz')
  })

  it('stops with exit code 0 on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolveExit) => server?.once('exit', resolveExit))
    server?.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
