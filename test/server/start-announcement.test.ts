/**
 * @module What `npm start` prints once it listens: at a terminal, a plain block with one address a line
 * before the JSON log lines; in a log pipeline (no terminal), the JSON lines only.
 */
import { describe, expect, it } from 'vitest'
import { createLogger } from '../../src/bff/logger.ts'
import { loadConfig } from '../../src/server/config.ts'
import { announceStart, startBanner } from '../../src/server/start-announcement.ts'
import { logSink } from '../bff/support/fake-upstream.ts'

const URL = 'http://127.0.0.1:8787'
const pages = { demo: true, playground: true }

describe('the start announcement', () => {
  it('at a terminal: the addresses as plain lines, each once, before any log line', () => {
    const config = loadConfig({})
    const out: string[] = []
    const logs = logSink()
    announceStart(
      createLogger({ destination: logs.destination }),
      { url: URL, config, pages },
      {
        write: (text: string) => out.push(text),
      },
    )
    expect(out).toHaveLength(1)
    const lines = out.join('').split('\n')
    expect(lines).toContain('offer-widget is running')
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}BFF +http:\/\/127\.0\.0\.1:8787 {2}\(sandbox mode: /),
    )
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}demo page +http:\/\/127\.0\.0\.1:8787\/demo\.html$/),
    )
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}playground +http:\/\/127\.0\.0\.1:8787\/$/))
    expect(lines).toContainEqual(
      expect.stringContaining(`${URL}/reports  (token for this run: ${config.reportsToken})`),
    )
    // Nothing of it is JSON; the log lines still say everything for a pipeline.
    expect(lines.some((line) => line.startsWith('{'))).toBe(false)
    expect(logs.lines.join('')).toContain(`offer-widget BFF listening on ${URL}`)
  })

  it('in a log pipeline: JSON lines only', () => {
    const logs = logSink()
    announceStart(
      createLogger({ destination: logs.destination }),
      { url: URL, config: loadConfig({}), pages },
      undefined,
    )
    expect(logs.lines.length).toBeGreaterThan(3)
    for (const line of logs.lines) expect(() => JSON.parse(line)).not.toThrow()
  })

  it('in production mode: no demo pages and no tokens in the block', () => {
    const config = loadConfig({
      BFF_MODE: 'production',
      SESSION_SECRET: '5f0c9e1a7b3d4c2e8f6a0b1c2d3e4f5a6b7c8d9e',
      PUBLIC_BASE_URL: 'https://offers.example.com',
    })
    const lines = startBanner({ url: URL, config, pages })
    expect(lines.join('\n')).toMatch(/BFF +http:\/\/127\.0\.0\.1:8787 {2}\(production mode: /)
    expect(lines.join('\n')).not.toMatch(/demo page|playground|token for this run/)
  })
})
