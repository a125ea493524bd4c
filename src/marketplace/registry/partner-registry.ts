/**
 * @module The partner registry: who gets leads, where, with which credentials, window, score factor and
 * display defaults. Read from `PARTNERS_FILE` (JSON or YAML), validated with zod, and refused at start with
 * every problem named. Credentials are referenced by environment variable name and resolved from the map
 * the config module hands over; their values are never logged.
 */
import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { parse as parseYaml } from 'yaml'
import * as z from 'zod/mini'
import { toFieldIssues } from '../../contract/common.ts'
import { httpUrlField } from '../../contract/http-url.ts'
import { hostReach } from '../../contract/network-host.ts'
import { partnerUrlProblem } from '../../contract/partner.ts'
import { secretWeakness } from '../../http/server-secret.ts'

/** docs/partner-interface.md: "Recommended response window: 12 seconds"; it is also our ceiling. */
export const MAX_PARTNER_TIMEOUT_MS = 12_000

export type PartnerTier = 'first' | 'second'
/**
 * What a partner's contract bills. Spelled here for the registry's public type; the ledger's `ContractPays`
 * is the same union, and the report route hands one to the other, so the compiler keeps them equal.
 */
export type PartnerPays = 'per_click' | 'per_conversion'

export interface PartnerDisplay {
  /** Shown as the institution when a reply's offers carry neither `display_name` nor `name`. */
  name: string
  logoUrl: string
  productType: string
  productDisplayName: string
  /** Marketing text: the offer's headline when a reply carries no `offer_details`. */
  copy: string
  disclaimer: string
}

export interface PartnerRegistryEntry {
  id: string
  name: string
  tier: PartnerTier
  endpoint: string
  /** The resolved header; the value is a secret. */
  auth?: { header: string; value: string } | undefined
  /**
   * The partner's own bearer token (a secret, from `reportsTokenEnv`): it reads this partner's reports and
   * suppression list only, and authenticates its conversion postbacks.
   */
  reportsToken?: string | undefined
  timeoutMs: number
  scoreFactor: number
  enabled: boolean
  /**
   * What the partner's contract bills (docs/partner-interface.md: "on click or on conversion"): its report's
   * spend is its clicks, or its conversions, times its bid. Absent: per click, the interface's `rate`.
   */
  pays?: PartnerPays | undefined
  /**
   * docs/placements.md: the partner is sent the lead's `placement` (the publisher's spot it came from) when
   * true; never when absent or false, the default.
   */
  sendPlacement?: boolean | undefined
  display: PartnerDisplay
  /**
   * Registered in sandbox mode: its `click_url` and `logo_src` may be http to this machine (the simulated
   * partners), and its endpoint's host name must resolve to this machine or a private network when a lead is
   * sent (fan-out/public-lookup.ts). Absent, as for every registry read outside sandbox mode, links must be
   * https to a public host.
   */
  sandbox?: boolean | undefined
}

const text = (field: string, max: number) =>
  z.string({ error: `${field} must be a string` }).check(z.maxLength(max, { error: `${field} is too long` }))

const displaySchema = z.strictObject({
  name: z.optional(text('display.name', 200)),
  logoUrl: z.optional(httpUrlField('display.logoUrl')),
  productType: z.optional(text('display.productType', 100).check(z.minLength(1))),
  productDisplayName: z.optional(text('display.productDisplayName', 200)),
  copy: z.optional(text('display.copy', 2000)),
  disclaimer: z.optional(text('display.disclaimer', 10_000)),
})

const entrySchema = z.strictObject({
  id: z.string({ error: 'id is required' }).check(
    z.regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
      error: 'id must be 1-64 lower-case letters, digits, "-" or "_", e.g. "acme-loans"',
    }),
  ),
  name: text('name', 200).check(z.minLength(1, { error: 'name is required' })),
  tier: z.enum(['first', 'second'], { error: 'tier must be "first" or "second"' }),
  endpoint: httpUrlField('endpoint', { example: 'https://partner.example.com/leads' }),
  auth: z.optional(
    z.strictObject({
      header: z.string().check(
        z.regex(/^[A-Za-z0-9-]{1,64}$/, {
          error: 'auth.header must be a header name, e.g. "Authorization"',
        }),
      ),
      valueEnv: z.string().check(
        z.regex(/^PARTNER_[A-Z0-9_]+$/, {
          error:
            'auth.valueEnv must name an environment variable starting with PARTNER_, e.g. "PARTNER_ACME_TOKEN"',
        }),
      ),
      /** Put before the value, e.g. "Bearer ". */
      prefix: z.optional(text('auth.prefix', 50)),
    }),
  ),
  reportsTokenEnv: z.optional(
    z.string().check(
      z.regex(/^PARTNER_[A-Z0-9_]+$/, {
        error:
          'reportsTokenEnv must name an environment variable starting with PARTNER_, e.g. "PARTNER_ACME_REPORTS_TOKEN"',
      }),
    ),
  ),
  timeoutMs: z.optional(
    z.int({ error: 'timeoutMs must be a whole number of milliseconds' }).check(
      z.gte(1, { error: 'timeoutMs must be at least 1' }),
      z.lte(MAX_PARTNER_TIMEOUT_MS, {
        error: `timeoutMs must be at most ${MAX_PARTNER_TIMEOUT_MS} (docs/partner-interface.md's window)`,
      }),
    ),
  ),
  scoreFactor: z.optional(
    z
      .number({ error: 'scoreFactor must be a number' })
      .check(
        z.gt(0, { error: 'scoreFactor must be more than 0' }),
        z.lte(1000, { error: 'scoreFactor must be at most 1000' }),
      ),
  ),
  enabled: z.optional(z.boolean({ error: 'enabled must be true or false' })),
  pays: z.optional(
    z.enum(['per_click', 'per_conversion'], {
      error: 'pays must be "per_click" or "per_conversion": what the partner\'s contract bills',
    }),
  ),
  sendPlacement: z.optional(
    z.boolean({
      error:
        "sendPlacement must be true or false: whether the partner is sent the lead's placement (docs/placements.md)",
    }),
  ),
  display: z.optional(displaySchema),
})

const fileSchema = z.strictObject(
  { partners: z.array(entrySchema, { error: 'partners must be a list of partners' }) },
  { error: 'the file must be { "partners": [ ... ] } or a list of partners' },
)

/** A partner's reports token guards its leads' win/loss: long enough not to be guessed. */
const MIN_REPORTS_TOKEN_LENGTH = 16

/** Headers we set ourselves or that would break the request. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-type',
  'content-length',
  'connection',
  'transfer-encoding',
])

export class PartnerRegistryError extends Error {
  override name = 'PartnerRegistryError'
}

export interface RegistryOptions {
  /**
   * Outside sandbox mode every endpoint must be https to a public host (the lead carries an SSN), and so
   * must every partner link; in sandbox mode http to this machine is accepted for both.
   */
  sandboxMode: boolean
  /** `PARTNER_*` variables from the config module; `auth.valueEnv` names one of them. */
  secrets: Readonly<Record<string, string | undefined>>
  /** Names the source in error messages, e.g. the file path. */
  origin?: string
}

/** Parses registry text (JSON is YAML, so YAML unless the format says otherwise). */
// long-function: one pass over the registry's entries that names every problem with its entry and field; the checks are calls, the span is the messages
export function parsePartnerRegistry(
  source: string,
  options: RegistryOptions & { format?: 'json' | 'yaml' },
): PartnerRegistryEntry[] {
  const origin = options.origin ?? 'partner registry'
  let raw: unknown
  try {
    raw = options.format === 'json' ? JSON.parse(source) : parseYaml(source)
  } catch (error) {
    throw new PartnerRegistryError(
      `${origin}: not valid ${options.format === 'json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    )
  }
  // A bare list is accepted as the partners themselves.
  const parsed = fileSchema.safeParse(Array.isArray(raw) ? { partners: raw } : raw)
  if (!parsed.success) {
    const lines = toFieldIssues(parsed.error).map((issue) => `  ${issue.field}: ${issue.reason}`)
    throw new PartnerRegistryError(`${origin} is invalid:\n${lines.join('\n')}`)
  }
  const list = parsed.data.partners
  const problems: string[] = []
  const seen = new Set<string>()
  const tokens = new Map<string, string>()
  const entries = list.map((entry, index): PartnerRegistryEntry => {
    const at = `partners.${index} (${entry.id})`
    for (const problem of identityProblems(entry, seen, options.sandboxMode)) {
      problems.push(`  ${at}.${problem.field}: ${problem.reason}`)
    }
    let auth: PartnerRegistryEntry['auth']
    if (entry.auth) {
      if (RESERVED_HEADERS.has(entry.auth.header.toLowerCase()))
        problems.push(
          `  ${at}.auth.header: "${entry.auth.header}" is set by the marketplace; pick another header`,
        )
      const value = options.secrets[entry.auth.valueEnv]
      if (value === undefined || value === '') {
        problems.push(`  ${at}.auth.valueEnv: ${entry.auth.valueEnv} is not set in the environment; set it`)
      } else {
        auth = { header: entry.auth.header, value: `${entry.auth.prefix ?? ''}${value}` }
      }
    }
    let reportsToken: string | undefined
    if (entry.reportsTokenEnv) {
      const value = options.secrets[entry.reportsTokenEnv]
      const weakness = value ? secretWeakness(value, MIN_REPORTS_TOKEN_LENGTH) : undefined
      if (value === undefined || value === '') {
        problems.push(
          `  ${at}.reportsTokenEnv: ${entry.reportsTokenEnv} is not set in the environment; set it`,
        )
      } else if (weakness !== undefined) {
        problems.push(`  ${at}.reportsTokenEnv: ${entry.reportsTokenEnv} ${weakness} (openssl rand -hex 24)`)
      } else if (tokens.has(value)) {
        problems.push(
          `  ${at}.reportsTokenEnv: ${entry.reportsTokenEnv} holds the same token as ${tokens.get(value)}'s; give each partner its own`,
        )
      } else {
        tokens.set(value, entry.id)
        reportsToken = value
      }
    }
    const productType = entry.display?.productType ?? 'loan'
    return {
      id: entry.id,
      name: entry.name,
      tier: entry.tier,
      endpoint: entry.endpoint,
      auth,
      reportsToken,
      timeoutMs: entry.timeoutMs ?? MAX_PARTNER_TIMEOUT_MS,
      scoreFactor: entry.scoreFactor ?? 1,
      enabled: entry.enabled ?? true,
      pays: entry.pays ?? 'per_click',
      sendPlacement: entry.sendPlacement ?? false,
      ...(options.sandboxMode ? { sandbox: true } : {}),
      display: {
        name: entry.display?.name ?? entry.name,
        logoUrl: entry.display?.logoUrl ?? '',
        productType,
        productDisplayName: entry.display?.productDisplayName ?? humanize(productType),
        copy: entry.display?.copy ?? '',
        disclaimer: entry.display?.disclaimer ?? '',
      },
    }
  })
  if (problems.length > 0) throw new PartnerRegistryError(`${origin} is invalid:\n${problems.join('\n')}`)
  return entries
}

/** Reads `PARTNERS_FILE`: `.json` as JSON, anything else as YAML. */
export function loadPartnerRegistry(file: string, options: RegistryOptions): PartnerRegistryEntry[] {
  let source: string
  try {
    source = readFileSync(file, 'utf8')
  } catch (error) {
    throw new PartnerRegistryError(
      `PARTNERS_FILE ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    )
  }
  return parsePartnerRegistry(source, {
    ...options,
    format: extname(file).toLowerCase() === '.json' ? 'json' : 'yaml',
    origin: `PARTNERS_FILE ${file}`,
  })
}

/** `installment_loan` -> `Installment loan`: a readable label for a product type nobody named. */
export function humanize(productType: string): string {
  const words = productType
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * The registry's identity rules, one definition for a `PARTNERS_FILE` and a registry built in code: an id
 * used once (`seen` holds the ids before this one; this one is added), and an endpoint that is https to a
 * public host outside sandbox mode, or http to this machine in it (the lead carries an SSN; the same
 * predicate as partner links, contract/network-host.ts). A name is judged again by where it resolves when a
 * lead is sent (fan-out/public-lookup.ts): by the marketplace's dispatcher outside sandbox mode, and for a
 * partner registered as a sandbox partner (`sandbox`) in it.
 */
export function identityProblems(
  entry: { id: string; endpoint: string },
  seen: Set<string>,
  sandboxMode: boolean,
): Array<{ field: 'id' | 'endpoint'; reason: string }> {
  const problems: Array<{ field: 'id' | 'endpoint'; reason: string }> = []
  if (seen.has(entry.id))
    problems.push({ field: 'id', reason: `"${entry.id}" is used twice; ids must be unique` })
  seen.add(entry.id)
  const endpointProblem =
    partnerUrlProblem(entry.endpoint, { publicOnly: !sandboxMode }) ??
    (sandboxMode ? sandboxReachProblem(entry.endpoint) : undefined)
  if (endpointProblem !== undefined) {
    problems.push({ field: 'endpoint', reason: `${endpointProblem} (the lead carries an SSN)` })
  }
  return problems
}

/**
 * Sandbox mode sends leads under sandbox rules (loose limits, made-up secrets, sample consent texts): only
 * to partners on this machine or a private network, never to a real partner on the public internet. A name
 * public by its spelling is refused here; any other (`partnergw`, `partner.internal`) is judged by the
 * addresses it resolves to when a lead is sent (`sandboxOnlyLookup`, for a partner registered as `sandbox`).
 */
function sandboxReachProblem(endpoint: string): string | undefined {
  if (hostReach(new URL(endpoint).hostname) !== 'public') return undefined
  return 'is on the public internet, and sandbox mode sends leads only to partners on this machine or a private network; run in production mode (ENGINE_TOKEN, or BFF_MODE=production for a server with no offer search) to send real leads'
}
