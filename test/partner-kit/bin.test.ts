/**
 * @module The package's bin as users run it: `node bin/offer-widget.js ...` in a child process.
 */
import { execFile, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningPartner, startReferencePartner } from '../../src/partner-kit/start-reference-partner.ts'
import { startLoopbackPartner } from './support/loopback-partner.ts'

const BIN = fileURLToPath(new URL('../../bin/offer-widget.js', import.meta.url))

function runBin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
    })
  })
}

let closers: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(closers.map((close) => close()))
  closers = []
})

// Each test starts node (and tsx) as a child process: seconds on a busy 2-core machine.
describe('bin/offer-widget.js', { timeout: 30_000 }, () => {
  it('check-partner --json against the reference partner exits 0 with the report as JSON', async () => {
    const partner: RunningPartner = await startReferencePartner({ port: 0 })
    closers.push(partner.close)
    const { code, stdout } = await runBin(['check-partner', `${partner.url}/leads`, '--json'])
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({ ok: true, url: `${partner.url}/leads`, windowMs: 12_000 })
    expect(report.checks.length).toBeGreaterThan(10)
    expect(report.latency).toEqual({
      samples: 10,
      p50Ms: expect.any(Number),
      p95Ms: expect.any(Number),
      maxMs: expect.any(Number),
    })
  })

  it('check-partner --json exits 1 against a broken partner, naming the failed check', async () => {
    const partner = await startLoopbackPartner(() => ({ body: { status: 'rejected', lead_id: 'x' } }))
    closers.push(partner.close)
    const { code, stdout } = await runBin(['check-partner', partner.url, '--json'])
    expect(code).toBe(1)
    const report = JSON.parse(stdout) as { ok: boolean; checks: Array<{ id: string; ok: boolean }> }
    expect(report.ok).toBe(false)
    expect(report.checks.filter((c) => !c.ok).map((c) => c.id)).toContain('reason')
  })

  it('exits 2 with a usage error naming the flag', async () => {
    const { code, stderr } = await runBin(['check-partner', 'https://p.example.com', '--window-ms', 'x'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--window-ms must be a whole number/)
  })

  it('partner --port 0 serves leads until SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'partner', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    closers.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL')
    })
    const url = await new Promise<string>((resolve, reject) => {
      let seen = ''
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString()
        const match = /listening on (http:\/\/\S+)/.exec(seen)
        if (match?.[1]) resolve(match[1])
      })
      child.once('exit', () => reject(new Error(`partner exited early: ${seen}`)))
    })
    const response = await fetch(`${url}/health`)
    expect(response.status).toBe(200)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
