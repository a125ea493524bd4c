/**
 * @module The workers-runtime recipes of docs/running-the-bff.md as a publisher runs them: the server package's
 * tarball installed into a scratch project (with esbuild, for the Worker's bundle), each block written there as
 * it stands, and each runtime started with the command the docs give: Bun and Deno serve an offer search and
 * take a second-look lead, workerd serves the bundle the documented esbuild command makes from the package.
 * test/runtimes/ runs the same blocks from the sources in `npm test`.
 */
import { execFile } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { block } from '../docs/support/readme-blocks.ts'
import { makeIssuedLead } from '../marketplace/support/harness.ts'
import {
  freePort,
  type RecordingSandbox,
  runtimeBin,
  searchUntilComplete,
  secondLookUntilComplete,
  startRecordingSandbox,
  startRuntime,
  untilReady,
  upstreamEnv,
  VISITOR_UA,
} from '../runtimes/support/runtime-bff.ts'
import { REPO, removeScratch, scratchProject, tarball } from './support/scratch-project.ts'

const execFileAsync = promisify(execFile)
const GUIDE = readFileSync(join(REPO, 'docs/running-the-bff.md'), 'utf8')

/** The command the guide gives in backticks, starting with `start`, split into its words. */
function documentedCommand(start: string): string[] {
  const found = new RegExp(`\`(${start} [^\`]+)\``).exec(GUIDE)?.[1]
  if (!found) throw new Error(`docs/running-the-bff.md gives no \`${start} …\` command`)
  return found.split(' ')
}

let dir = ''
let sandbox: RecordingSandbox

beforeAll(async () => {
  dir = scratchProject('offer-widget-runtimes', [tarball('offer-widget-server'), 'esbuild@0.28'])
  writeFileSync(join(dir, 'bff-bun.ts'), block('bun').code)
  writeFileSync(join(dir, 'bff-deno.ts'), block('deno').code)
  writeFileSync(join(dir, 'worker.ts'), block('worker').code)
  writeFileSync(join(dir, 'bff.capnp'), block('workerd-config').code)
  sandbox = await startRecordingSandbox()
})

afterAll(async () => {
  await sandbox?.close()
  if (dir) removeScratch(dir)
})

describe.each([
  { runtime: 'bun' as const, command: () => documentedCommand('bun run') },
  { runtime: 'deno' as const, command: () => documentedCommand('deno run') },
])('$runtime, the package installed', ({ runtime, command }) => {
  it('serves an offer search and takes a second-look lead with the documented command', async () => {
    const port = await freePort()
    const [, ...args] = command()
    const file = args.pop() as string
    expect(file).toBe('bff.ts')
    const running = await startRuntime(runtimeBin(runtime), [...args, `bff-${runtime}.ts`], {
      env: { ...upstreamEnv(sandbox, port), DENO_NO_UPDATE_CHECK: '1' },
      port,
      cwd: dir,
    })
    try {
      const { created, rateTable } = await searchUntilComplete(running.url)
      expect(created.status, running.output()).toBe(201)
      expect(rateTable.offers.length).toBeGreaterThan(0)
      expect(sandbox.visitors.at(-1)).toEqual({ ipAddress: '127.0.0.1', userAgent: VISITOR_UA })
      await untilReady(running.url)
      const lead = await secondLookUntilComplete(running.url, makeIssuedLead())
      expect(lead.created.status, lead.body).toBe(201)
    } finally {
      await running.stop()
    }
  }, 120_000)
})

describe('workerd, the package installed', () => {
  it('serves an offer search from the bundle the documented esbuild command makes', async () => {
    // The command as written, in the scratch project (its npx finds the esbuild installed there).
    await execFileAsync('sh', ['-c', block('worker-build').code], { cwd: dir })
    const port = await freePort()
    const [, , ...args] = documentedCommand('npx workerd serve')
    const running = await startRuntime(
      runtimeBin('workerd'),
      [...args, '--socket-addr', `http=127.0.0.1:${port}`],
      { env: upstreamEnv(sandbox, port), port, cwd: dir },
    )
    try {
      const { created, rateTable } = await searchUntilComplete(running.url, {
        'cf-connecting-ip': '203.0.113.9',
      })
      expect(created.status, running.output()).toBe(201)
      expect(rateTable.offers.length).toBeGreaterThan(0)
      expect(sandbox.visitors.at(-1)).toEqual({ ipAddress: '203.0.113.9', userAgent: VISITOR_UA })
    } finally {
      await running.stop()
    }
  }, 120_000)
})
