/**
 * @module Argument parsing: defaults, and a usage error naming the flag for every bad argument.
 */
import { describe, expect, it } from 'vitest'
import { parseCheckPartnerArgs, parsePartnerArgs, UsageError } from '../../src/partner-kit/cli-args.ts'

function usageError(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as UsageError).message
  }
  throw new Error('expected a UsageError')
}

describe('parseCheckPartnerArgs', () => {
  it('reads the url, repeated headers (--header and -H), --json, --window-ms and --concurrency', () => {
    expect(
      parseCheckPartnerArgs([
        'https://partner.example.com/leads',
        '--header',
        'Authorization: Bearer abc: def',
        '-H',
        'X-Api-Key:k',
        '--json',
        '--window-ms=5000',
        '--concurrency',
        '8',
      ]),
    ).toEqual({
      help: false,
      url: 'https://partner.example.com/leads',
      headers: [
        ['Authorization', 'Bearer abc: def'],
        ['X-Api-Key', 'k'],
      ],
      json: true,
      windowMs: 5000,
      concurrency: 8,
    })
  })

  it('defaults to the 12 s window of docs/partner-interface.md and 4 at a time', () => {
    expect(parseCheckPartnerArgs(['http://127.0.0.1:1/'])).toMatchObject({
      windowMs: 12_000,
      concurrency: 4,
      json: false,
    })
  })

  it.each([
    [[], /missing <url>/],
    [['ftp://x.example.com'], /<url> must use http or https/],
    [['not a url'], /<url> must be an absolute URL/],
    [['https://a.example.com', 'https://b.example.com'], /unexpected argument/],
    [['https://a.example.com', '--header', 'NoColon'], /--header must look like "Name: value"/],
    [['https://a.example.com', '--header', 'Content-Length: 5'], /--header cannot set Content-Length/],
    [['https://a.example.com', '--header'], /--header/],
    [['https://a.example.com', '--window-ms', 'soon'], /--window-ms must be a whole number from 1/],
    [['https://a.example.com', '--concurrency', '99'], /--concurrency must be a whole number from 1 to 16/],
    [['https://a.example.com', '--concurrency', '0'], /--concurrency/],
    [['https://a.example.com', '--jsn'], /--jsn/],
    [['https://a.example.com', '--json=yes'], /--json/],
  ])('%j -> usage error %s', (argv, message) => {
    expect(usageError(() => parseCheckPartnerArgs(argv))).toMatch(message)
  })

  it('takes --help without a url', () => {
    expect(parseCheckPartnerArgs(['--help']).help).toBe(true)
  })
})

describe('parsePartnerArgs', () => {
  it('defaults to port 8788 on loopback', () => {
    expect(parsePartnerArgs([])).toEqual({ help: false, port: 8788, host: '127.0.0.1' })
  })

  it('reads every option', () => {
    expect(
      parsePartnerArgs([
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--secret',
        '0123456789abcdef',
        '--click-base',
        'https://c.example.com/go',
        '--name',
        'Acme',
      ]),
    ).toEqual({
      help: false,
      port: 0,
      host: '0.0.0.0',
      secret: '0123456789abcdef',
      clickBaseUrl: 'https://c.example.com/go',
      partnerName: 'Acme',
    })
  })

  it.each([
    [['--port', 'abc'], /--port must be a whole number from 0 to 65535/],
    [['--port', '70000'], /--port must be a whole number/],
    [['--port', '-1'], /--port/],
    [['--port'], /--port/],
    [['--secret', 'short'], /--secret must be at least 16 characters/],
    [['--click-base', 'http://c.example.com'], /--click-base must use https/],
    [['--name', ' '], /--name must not be empty/],
    [['--bogus'], /--bogus/],
    [['extra'], /unexpected argument "extra"/],
  ])('%j -> usage error %s', (argv, message) => {
    expect(usageError(() => parsePartnerArgs(argv))).toMatch(message)
  })
})
