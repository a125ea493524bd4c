/**
 * @module Argument parsers of the partner-kit subcommands. A bad argument is a `UsageError` whose message
 * names the flag and the fix; the CLI prints it with the subcommand's usage and exits 2.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, RESPONSE_WINDOW_MS } from './conformance-checker.ts'

export class UsageError extends Error {
  override name = 'UsageError'
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message)
  }
}

export const PARTNER_USAGE = `Usage: offer-widget partner [options]

Runs the reference partner: POST a seed-001 lead as JSON to / or /leads.

Options:
  --port N            port to listen on (default 8788; 0 picks a free one)
  --host HOST         address to bind (default 127.0.0.1; 0.0.0.0 exposes it)
  --secret TEXT       HMAC key of lead_id, at least 16 characters (default: random per run)
  --click-base URL    https base of click URLs (default https://partner.example.com/click)
  --name NAME         partner name carried in offers (default "Reference Lender")
  -h, --help          show this help`

export const CHECK_PARTNER_USAGE = `Usage: offer-widget check-partner <url> [options]

Sends synthetic leads to a partner endpoint and checks every reply against docs/partner-interface.md.

Options:
  -H, --header "Name: value"  extra request header, repeatable (e.g. authentication)
  --json                      print the report as JSON (for CI)
  --window-ms N               response window in ms (default ${RESPONSE_WINDOW_MS}, docs/partner-interface.md)
  --concurrency N             leads in flight at once, 1-${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})
  -h, --help                  show this help

Exit code: 0 every check passed, 1 a check failed, 2 bad arguments.`

export interface PartnerArgs {
  help: boolean
  port: number
  host: string
  secret?: string
  clickBaseUrl?: string
  partnerName?: string
}

export interface CheckPartnerArgs {
  help: boolean
  url: string
  headers: Array<[string, string]>
  json: boolean
  windowMs: number
  concurrency: number
}

const DEFAULT_PARTNER_PORT = 8788

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options']

interface Parsed {
  values: Record<string, string | boolean | Array<string | boolean> | undefined>
  positionals: string[]
}

function parse(argv: readonly string[], options: Options, usage: string): Parsed {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true }) as Parsed
  } catch (error) {
    // node's messages name the flag: "Unknown option '--foo'", "Option '--port <value>' argument missing".
    throw new UsageError(error instanceof Error ? error.message : String(error), usage)
  }
}

function integer(flag: string, value: string | undefined, min: number, max: number, usage: string) {
  if (value === undefined) return undefined
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(
      `${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
      usage,
    )
  return n
}

function absoluteUrl(flag: string, value: string, protocols: readonly string[], usage: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`${flag} must be an absolute URL, got ${JSON.stringify(value)}`, usage)
  }
  if (!protocols.includes(url.protocol))
    throw new UsageError(
      `${flag} must use ${protocols.map((p) => p.slice(0, -1)).join(' or ')}: ${value}`,
      usage,
    )
  return value
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** Headers that belong to the transport; overriding them would break the request. */
const RESERVED_HEADERS = ['content-length', 'transfer-encoding', 'connection', 'host', 'content-type']

/** `"Name: value"` -> [name, value]. */
function parseHeader(raw: string, usage: string): [string, string] {
  const colon = raw.indexOf(':')
  const name = colon < 0 ? '' : raw.slice(0, colon).trim()
  const value = colon < 0 ? '' : raw.slice(colon + 1).trim()
  if (!TOKEN.test(name))
    throw new UsageError(`--header must look like "Name: value", got ${JSON.stringify(raw)}`, usage)
  if (/[\r\n\0]/.test(value))
    throw new UsageError(`--header value of ${name} must not contain line breaks`, usage)
  if (RESERVED_HEADERS.includes(name.toLowerCase()))
    throw new UsageError(`--header cannot set ${name}: the checker sends it itself`, usage)
  return [name, value]
}

export function parsePartnerArgs(argv: readonly string[]): PartnerArgs {
  const usage = PARTNER_USAGE
  const { values, positionals } = parse(
    argv,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      secret: { type: 'string' },
      'click-base': { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    usage,
  )
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`, usage)
  const str = (key: string) => values[key] as string | undefined
  const secret = str('secret')
  if (secret !== undefined && secret.length < 16)
    throw new UsageError('--secret must be at least 16 characters', usage)
  const host = str('host') ?? '127.0.0.1'
  if (host.trim() === '') throw new UsageError('--host must not be empty', usage)
  const clickBase = str('click-base')
  const name = str('name')
  if (name !== undefined && name.trim() === '') throw new UsageError('--name must not be empty', usage)
  return {
    help: values.help === true,
    port: integer('--port', str('port'), 0, 65_535, usage) ?? DEFAULT_PARTNER_PORT,
    host,
    ...(secret === undefined ? {} : { secret }),
    ...(clickBase === undefined
      ? {}
      : { clickBaseUrl: absoluteUrl('--click-base', clickBase, ['https:'], usage) }),
    ...(name === undefined ? {} : { partnerName: name }),
  }
}

export function parseCheckPartnerArgs(argv: readonly string[]): CheckPartnerArgs {
  const usage = CHECK_PARTNER_USAGE
  const { values, positionals } = parse(
    argv,
    {
      header: { type: 'string', short: 'H', multiple: true },
      json: { type: 'boolean' },
      'window-ms': { type: 'string' },
      concurrency: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    usage,
  )
  const help = values.help === true
  if (positionals.length > 1)
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}`, usage)
  const url = positionals[0]
  if (url === undefined && !help) throw new UsageError('missing <url>: the partner endpoint to check', usage)
  return {
    help,
    url: url === undefined ? '' : absoluteUrl('<url>', url, ['http:', 'https:'], usage),
    headers: ((values.header as string[] | undefined) ?? []).map((raw) => parseHeader(raw, usage)),
    json: values.json === true,
    windowMs:
      integer('--window-ms', values['window-ms'] as string | undefined, 1, 600_000, usage) ??
      RESPONSE_WINDOW_MS,
    concurrency:
      integer('--concurrency', values.concurrency as string | undefined, 1, MAX_CONCURRENCY, usage) ??
      DEFAULT_CONCURRENCY,
  }
}
