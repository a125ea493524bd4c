/**
 * @module Builds the sandbox: a Hono app serving the offer search API of docs/offer-search-api.md once per environment
 * (`/test/...`, `/production/...`, since "`{base_url}` is the test address when a test token is used"),
 * plus the pixel sink, logos and landing pages at its root.
 */
import { type Context, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { type FieldIssue, toFieldIssues, UUID_PATTERN } from '../contract/common.ts'
import {
  AUTOMOBILE_INSURANCE,
  CURRENT_API_VERSION,
  NOT_INSURED,
  offerSearchRequestSchema,
  readZip,
} from '../contract/offer-search.ts'
import { retryAfterHeader } from '../http/errors.ts'
import { systemTimers } from '../http/timers.ts'
import { CARRIERS, carrierById } from './carriers.ts'
import { ConnectionResetError, upstreamError, upstreamErrorResponse } from './errors.ts'
import { type Faults, mergeFaults, NO_FAULTS } from './faults.ts'
import { logoSvg } from './logos.ts'
import { injectFaults } from './middleware/inject-faults.ts'
import { requireApiHeaders } from './middleware/require-api-headers.ts'
import { requireBearer } from './middleware/require-bearer.ts'
import { partnerBySlug } from './partners.ts'
import { createPixelSink, TRANSPARENT_GIF } from './pixel-sink.ts'
import { cryptoRandom, randomSeed, randomUuid } from './random.ts'
import { createRateTableStore, ENVIRONMENTS, type Environment } from './rate-table-store.ts'
import { rateTableAt } from './rate-table-view.ts'
import { SCENARIOS, scenarioForZip } from './scenarios.ts'
import type { Sandbox, SandboxOptions } from './types.ts'
import { SANDBOX_DEFAULT_TOKENS } from './types.ts'

const ONE_HOUR_MS = 60 * 60 * 1000

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const timers = options.timers ?? systemTimers
  const apiVersions = options.apiVersions ?? [CURRENT_API_VERSION]
  let faults = mergeFaults(NO_FAULTS, options.faults ?? {})
  const store = createRateTableStore({
    maxEntries: options.maxRateTables ?? 10_000,
    ttlMs: options.rateTableTtlMs ?? ONE_HOUR_MS,
  })
  const pixels = createPixelSink()
  const publicBase = publicBaseFor(options)
  const state: SandboxState = {
    now: () => timers.now(),
    random: options.random ?? cryptoRandom,
    tokens: checkedTokens(options.tokens),
    apiVersions,
    minPollIntervalMs: options.minPollIntervalMs ?? 1000,
    faults: () => faults,
    store,
    publicBase,
  }

  const app = new Hono()
  app.onError((error) => {
    if (error instanceof HTTPException) return error.getResponse()
    // A reset must not become an answer: rethrowing rejects the fetch (in-process) or is written to a
    // socket that is already destroyed (on Node).
    if (error instanceof ConnectionResetError) throw error
    console.error('sandbox: unexpected error', error)
    return upstreamErrorResponse(500, [{ field: '(service)', reason: 'sandbox internal error' }])
  })
  app.notFound((c) =>
    upstreamErrorResponse(404, [
      { field: '(path)', reason: `no sandbox route ${new URL(c.req.url).pathname}` },
    ]),
  )

  app.get('/', (c) => {
    const base = publicBase(c.req.url)
    return c.json({
      name: 'offer-widget sandbox (docs/offer-search-api.md offer search API)',
      environments: Object.fromEntries(ENVIRONMENTS.map((env) => [env, `${base}/${env}`])),
      apiVersions,
      scenarios: SCENARIOS,
      pixelHits: `${base}/pixels/hits`,
    })
  })
  for (const environment of ENVIRONMENTS) app.route(`/${environment}`, environmentApp(environment, state))

  assetRoutes(app, pixels)

  return {
    app,
    fetch: async (request) => app.fetch(request),
    setFaults(change) {
      faults = mergeFaults(faults, change)
    },
    faults: () => ({ ...faults }),
    pixelHits: () => pixels.hits(),
    resetPixelHits: () => pixels.reset(),
    rateTableCount: () => store.size(),
    reset() {
      store.clear()
      pixels.reset()
      faults = { ...NO_FAULTS }
    },
  }
}

/** One environment's API (`/test`, `/production`): faults, then bearer and headers, then the three endpoints. */
function environmentApp(environment: Environment, state: SandboxState): Hono {
  const api = new Hono()
  // Faults first: they stand for the network and the service failing, before any rule is checked.
  api.use(injectFaults({ faults: state.faults, random: state.random }))
  api.use(requireBearer({ environment, tokens: state.tokens }))
  api.use(requireApiHeaders({ supportedVersions: state.apiVersions }))

  api.get('/leads/autoInsurance/issuers', (c) => {
    const base = state.publicBase(c.req.url, environment)
    return c.json(
      CARRIERS.map((carrier) => ({
        id: carrier.id,
        name: carrier.name,
        logoImageUrl: `${base}/logos/carriers/${carrier.id}.svg`,
      })),
    )
  })

  api.post('/offerSearches/', (c) => createOfferSearch(c, environment, state))
  api.get('/offerSearches/:uuid', (c) => pollOfferSearch(c, environment, state))
  api.all('*', (c) => {
    throw upstreamError(404, [
      {
        field: '(path)',
        reason:
          `no endpoint ${c.req.method} ${new URL(c.req.url).pathname}; the API has GET ` +
          '/leads/autoInsurance/issuers, POST /offerSearches/ and GET /offerSearches/{uuid}',
      },
    ])
  })
  return api
}

/** `POST /offerSearches/`: a body that passes the schema and the rules becomes a rate table of its ZIP's scenario. */
async function createOfferSearch(
  c: Context,
  environment: Environment,
  state: SandboxState,
): Promise<Response> {
  let body: unknown
  try {
    body = JSON.parse(await c.req.text())
  } catch (error) {
    throw upstreamError(400, [
      { field: '(body)', reason: `body is not valid JSON (${(error as Error).message})` },
    ])
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw upstreamError(400, [{ field: '(body)', reason: 'body must be a JSON object' }])
  }
  const issues = validateSearch(body as Record<string, unknown>)
  if (issues.length > 0) throw upstreamError(400, issues)
  const request = body as { personalInformation?: { zipCode?: unknown; zipcode?: unknown } }
  const nowMs = state.now()
  const record = {
    uuid: randomUuid(state.random),
    leadUuid: randomUuid(state.random),
    environment,
    createdAtMs: nowMs,
    scenario: scenarioForZip(readZip(request.personalInformation)),
    seed: randomSeed(state.random),
    publicBase: state.publicBase(c.req.url, environment),
    lastPollAtMs: undefined,
    pollCount: 0,
  }
  state.store.add(record, nowMs)
  const location = `${new URL(c.req.url).pathname.replace(/\/?$/, '/')}${record.uuid}`
  return c.json(rateTableAt(record, nowMs, 'create'), 201, { location })
}

/** `GET /offerSearches/{uuid}`: the rate table as it stands now, at most once a second, failing as its scenario says. */
function pollOfferSearch(c: Context, environment: Environment, state: SandboxState): Response {
  const uuid = c.req.param('uuid') ?? ''
  if (!UUID_PATTERN.test(uuid)) {
    throw upstreamError(400, [
      { field: 'uuid', reason: 'uuid in the path must be a UUID (8-4-4-4-12 hex digits)' },
    ])
  }
  const nowMs = state.now()
  const record = state.store.get(uuid, nowMs)
  // docs/offer-search-api.md: "Unknown uuid, or a uuid from the other environment: 404 Not Found."
  if (record === undefined || record.environment !== environment) {
    throw upstreamError(404, [
      {
        field: 'uuid',
        reason: `no rate table ${uuid} in the ${environment} environment; check the uuid and environment`,
      },
    ])
  }
  if (record.lastPollAtMs !== undefined && nowMs - record.lastPollAtMs < state.minPollIntervalMs) {
    const waitMs = record.lastPollAtMs + state.minPollIntervalMs - nowMs
    throw upstreamError(
      429,
      [{ field: 'uuid', reason: 'rate table polled more than once per second; honor Retry-After' }],
      retryAfterHeader(waitMs / 1000),
    )
  }
  record.lastPollAtMs = nowMs
  record.pollCount += 1
  const failure = record.scenario.pollFailure
  if (failure && nowMs - record.createdAtMs < failure.untilMs) {
    const status = failure.statuses[(record.pollCount - 1) % failure.statuses.length] ?? 503
    throw upstreamError(
      status,
      [
        {
          field: '(service)',
          reason:
            status === 429
              ? `scenario ${record.scenario.name}: too many requests; honor Retry-After`
              : `scenario ${record.scenario.name}: server error; retry with exponential backoff`,
        },
      ],
      failure.retryAfterSeconds === undefined ? {} : retryAfterHeader(failure.retryAfterSeconds),
    )
  }
  return c.json(rateTableAt(record, nowMs, 'poll'))
}

/** What the environments' handlers share, built once by `createSandbox`. */
interface SandboxState {
  now(): number
  random: () => number
  tokens: { test: Set<string>; production: Set<string> }
  apiVersions: readonly string[]
  minPollIntervalMs: number
  faults(): Faults
  store: ReturnType<typeof createRateTableStore>
  /** Base of the sandbox app for URLs in answers: configured, or origin + mount path of this request. */
  publicBase(url: string, environment?: Environment): string
}

/** The accepted tokens per environment; one token in both is refused (docs/offer-search-api.md: "separate"). */
function checkedTokens(lists: SandboxOptions['tokens']): SandboxState['tokens'] {
  const given = lists ?? {
    test: [SANDBOX_DEFAULT_TOKENS.test],
    production: [SANDBOX_DEFAULT_TOKENS.production],
  }
  const tokens = { test: new Set(given.test), production: new Set(given.production) }
  for (const token of tokens.test) {
    if (tokens.production.has(token)) {
      throw new Error(
        'sandbox: a token cannot belong to both test and production (docs/offer-search-api.md: "separate")',
      )
    }
  }
  return tokens
}

function publicBaseFor(options: SandboxOptions): SandboxState['publicBase'] {
  const fixedBase = options.publicBaseUrl?.replace(/\/+$/, '')
  return function publicBase(url, environment) {
    if (fixedBase !== undefined) return fixedBase
    const { origin, pathname } = new URL(url)
    if (options.basePath !== undefined) return `${origin}${options.basePath.replace(/\/+$/, '')}`
    if (environment === undefined) return origin
    const at = pathname.lastIndexOf(`/${environment}/`)
    return `${origin}${at > 0 ? pathname.slice(0, at) : ''}`
  }
}

/** Pixels (fired and counted), logos and the offers' landing page: what the answers' URLs point at. */
function assetRoutes(app: Hono, pixels: ReturnType<typeof createPixelSink>): void {
  // docs/offer-search-api.md: "the request method used to fire a pixel: not shown", so an <img> GET and a
  // sendBeacon POST both count.
  app.on(['GET', 'POST'], '/pixels/:offer/:file', (c) => {
    if (!UUID_PATTERN.test(c.req.param('offer')) || !/^\d+\.gif$/.test(c.req.param('file'))) {
      return c.notFound()
    }
    pixels.hit(c.req.url)
    return c.body(TRANSPARENT_GIF, 200, {
      'content-type': 'image/gif',
      'cache-control': 'no-store',
      'cross-origin-resource-policy': 'cross-origin',
      // The widget fires pixels as anonymous CORS images (no cookies go to the tracker): without this, a
      // publisher page on another origin logs a blocked response for every pixel (the hit still counts).
      'access-control-allow-origin': '*',
    })
  })
  app.get('/pixels/hits', (c) => c.json(pixels.hits(), 200, { 'access-control-allow-origin': '*' }))
  app.delete('/pixels/hits', (c) => {
    pixels.reset()
    return c.body(null, 204)
  })

  app.get('/logos/:kind/:file', (c) => {
    const match = /^([a-z0-9-]+)\.svg$/.exec(c.req.param('file'))
    const kind = c.req.param('kind')
    const id = match?.[1] ?? ''
    const subject =
      kind === 'carriers' ? carrierById(id) : kind === 'partners' ? partnerBySlug(id) : undefined
    if (subject === undefined) return c.notFound()
    const name = 'brandName' in subject ? subject.brandName : subject.name
    return c.body(logoSvg(name, subject.color), 200, {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
      'cross-origin-resource-policy': 'cross-origin',
    })
  })

  // Offer links land here, so clicking in a demo or an e2e test never leaves the machine.
  app.get('/landing/:offer', (c) => {
    const offer = c.req.param('offer')
    if (!UUID_PATTERN.test(offer)) return c.notFound()
    const monetized = c.req.query('monetized') === '1'
    return c.html(
      `<!doctype html><title>Sandbox landing page</title><h1>Sandbox landing page</h1>` +
        `<p>Offer <code>${offer}</code>, reached through its ${monetized ? 'monetized <code>url</code>' : '<code>unmonetizedUrl</code>'}.</p>`,
    )
  })
}

/**
 * Rules beyond the request schema. docs/offer-search-api.md: productTypes "Use `[AutomobileInsurance]`"; currentIssuer
 * "Must be an issuer `id` from the issuers list, or `notinsured`".
 */
function validateSearch(body: Record<string, unknown>): FieldIssue[] {
  // A missing sessionInformation object is reported as its two required fields, each by name.
  const normalized = body.sessionInformation === undefined ? { ...body, sessionInformation: {} } : body
  const parsed = offerSearchRequestSchema.safeParse(normalized)
  const issues = parsed.success
    ? []
    : toFieldIssues(parsed.error).map((issue, i) =>
        // "must be a string" reads oddly for a field that is not there at all.
        valueAt(normalized, parsed.error.issues[i]?.path ?? []) === undefined &&
        !issue.reason.includes('required')
          ? { field: issue.field, reason: `${issue.field} is required` }
          : issue,
      )
  const productTypes = body.productTypes
  if (
    Array.isArray(productTypes) &&
    productTypes.length > 0 &&
    productTypes.every((type) => typeof type === 'string' && type !== '') &&
    !productTypes.includes(AUTOMOBILE_INSURANCE)
  ) {
    issues.push({
      field: 'productTypes',
      reason: `productTypes must include "${AUTOMOBILE_INSURANCE}": send ["${AUTOMOBILE_INSURANCE}"]`,
    })
  }
  const issuer = (body.autoInsuranceInformation as { currentIssuer?: unknown } | undefined)?.currentIssuer
  if (
    typeof issuer === 'string' &&
    issuer !== '' &&
    issuer !== NOT_INSURED &&
    carrierById(issuer) === undefined
  ) {
    issues.push({
      field: 'autoInsuranceInformation.currentIssuer',
      reason: `autoInsuranceInformation.currentIssuer "${issuer}" is not an issuer id from GET /leads/autoInsurance/issuers nor "${NOT_INSURED}"`,
    })
  }
  return issues
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}
