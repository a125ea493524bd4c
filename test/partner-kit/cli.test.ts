/**
 * @module The dispatcher in-process: help, unknown commands, usage errors (exit 2), check-partner output.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { COMMANDS, runCli } from '../../src/partner-kit/cli.ts'
import type { CliIo } from '../../src/partner-kit/command.ts'
import { type RunningPartner, startReferencePartner } from '../../src/partner-kit/start-reference-partner.ts'

function capture() {
  const out = { stdout: '', stderr: '', stops: [] as Array<() => Promise<void>> }
  const io: CliIo = {
    stdout: (text) => {
      out.stdout += text
    },
    stderr: (text) => {
      out.stderr += text
    },
    onStop: (stop) => {
      out.stops.push(stop)
    },
  }
  return { io, out }
}

let running: RunningPartner | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

describe('runCli', () => {
  it('lists every command under help', async () => {
    const { io, out } = capture()
    expect(await runCli(['help'], io)).toBe(0)
    for (const name of [...Object.keys(COMMANDS), 'help']) expect(out.stdout).toContain(name)
  })

  it("shows a command's usage with help <command> or --help", async () => {
    const a = capture()
    expect(await runCli(['help', 'check-partner'], a.io)).toBe(0)
    expect(a.out.stdout).toMatch(/--window-ms/)
    const b = capture()
    expect(await runCli(['partner', '--help'], b.io)).toBe(0)
    expect(b.out.stdout).toMatch(/--port N/)
  })

  it('exits 2 for no command or an unknown one', async () => {
    expect(await runCli([], capture().io)).toBe(2)
    const { io, out } = capture()
    expect(await runCli(['deploy'], io)).toBe(2)
    expect(out.stderr).toMatch(/unknown command "deploy"/)
  })

  it('exits 2 with the flag named and the usage for bad arguments', async () => {
    const { io, out } = capture()
    expect(await runCli(['check-partner', 'https://p.example.com', '--concurrency', 'lots'], io)).toBe(2)
    expect(out.stderr).toMatch(/^offer-widget check-partner: --concurrency must be a whole number/)
    expect(out.stderr).toMatch(/Usage: offer-widget check-partner <url>/)
  })

  it('partner starts a server, prints its URL, and registers its stop', async () => {
    const { io, out } = capture()
    expect(await runCli(['partner', '--port', '0'], io)).toBe(0)
    const url = /listening on (http:\/\/\S+)/.exec(out.stdout)?.[1]
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await fetch(`${url}/health`)).status).toBe(200)
    expect(out.stops).toHaveLength(1)
    await out.stops[0]?.()
    await expect(fetch(`${url}/health`)).rejects.toThrow()
  })

  it('partner exits 2 naming --port when the port is taken', async () => {
    running = await startReferencePartner({ port: 0 })
    const { io, out } = capture()
    expect(await runCli(['partner', '--port', String(running.port)], io)).toBe(2)
    expect(out.stderr).toMatch(/--port \d+ is in use on 127\.0\.0\.1/)
  })

  it('check-partner prints a text report, one line per check, and exits 0 when all pass', async () => {
    running = await startReferencePartner({ port: 0 })
    const { io, out } = capture()
    expect(await runCli(['check-partner', `${running.url}/leads`], io)).toBe(0)
    expect(out.stdout).toMatch(/^ {2}PASS {2}click-url +every offer has click_url, https to a public host: /m)
    expect(out.stdout).toMatch(/^Latency {2}p50 \d+ ms {2}p95 \d+ ms {2}max \d+ ms/m)
    expect(out.stdout).toMatch(/^PASS: all \d+ checks passed$/m)
    // The no-remarketing duty is stated on every run: no check can test it from outside.
    expect(out.stdout).toMatch(
      /^Your obligations .*\n {2}- No remarketing: you must not remarket to any lead that did not click your offer/m,
    )
    expect(out.stdout).toContain('/api/reports/partners/<your id>/suppression')
  })

  it('check-partner exits 1 and prints FAIL lines with the reason when a check fails', async () => {
    const { io, out } = capture()
    running = await startReferencePartner({ port: 0 })
    expect(await runCli(['check-partner', `${running.url}/nowhere`], io)).toBe(1)
    expect(out.stdout).toMatch(/^ {2}FAIL {2}http-status .*\n {8}- complete: HTTP 404/m)
    expect(out.stdout).toMatch(/^FAIL: \d+ of \d+ checks failed$/m)
    expect(out.stdout).toContain('No remarketing')
  })
})
