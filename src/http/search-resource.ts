/**
 * @module What a search is on the wire, written once for its two engines: the offer search (the upstream's
 * rate table, `POST /api/offer-searches`) and the second look (the marketplace's, `POST /api/second-look`).
 * - `POST /`: the body's size bound, the refusal of a declared bot, then the host's guards (per-address limit,
 *   ceiling), then the engine creates with the visitor's identity read from the request; the answer is
 *   `201 { accessToken, rateTable }` with a token issued for the new uuid.
 * - `GET /:uuid`: a well-formed uuid (else 400), the access token issued for it (missing, wrong or expired:
 *   404, like an unknown uuid, so nothing confirms a search exists), then the engine's rate table (404 when
 *   it has none). Every answer is `no-store`: it carries a token or a visitor's offers.
 * The engine owns what differs: what it reads from the request, how it fails, how it coalesces polls.
 * `searchApiRoutes` mounts a search that has routes of its own (the second look's clicks, reports) with the
 * host's guards: the BFF mounts both searches, and a search engine never sees the BFF.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { ACCESS_TOKEN_HEADER } from '../contract/bff.ts'
import { UUID_PATTERN } from '../contract/common.ts'
import type { SessionInformation } from '../contract/offer-search.ts'
import { limitBody } from './body-limit.ts'
import { httpError } from './errors.ts'
import { refuseDeclaredBots } from './refuse-declared-bots.ts'
import type { AccessTokens, ClientIdentityFn } from './request-services.ts'

/** A rate table as JSON text (the upstream's, passed on as it came) or as a value to serialise. */
export type RateTableBody = string | object

/** What an engine answers for a new search. */
export interface CreatedRateTable {
  searchUuid: string
  rateTable: RateTableBody
  /** Extra headers of the 201 (a replayed or duplicate lead says so). */
  headers?: Record<string, string>
}

export interface SearchEngine {
  /** The search as error messages name it: "offer search", "second-look search". */
  noun: string
  /** The largest body `POST /` reads, checked first. */
  bodyLimitBytes: number
  /**
   * What a declared bot may not do here, for its 403 (`refuseDeclaredBots`): "run offer searches (each one
   * is billed)".
   */
  refusedToBots: string
  /**
   * Creates a search from the request, its guards passed; throws an `httpError` to refuse. `visitor` reads
   * the visitor's IP address (through the trusted proxies) and user agent, and throws a 400 when it cannot.
   */
  create(c: Context, visitor: () => SessionInformation): Promise<CreatedRateTable>
  /** The rate table of a search whose token checked out, or `undefined` when there is none. */
  poll(searchUuid: string, c: Context): Promise<RateTableBody | undefined>
}

export interface SearchResourceOptions {
  accessTokens: AccessTokens
  /** Reads the visitor behind a request (`client-identity.ts` builds the BFF's). */
  identity: ClientIdentityFn
  /** False in sandbox mode, where nothing is billed or sent to a real partner: declared bots may search. */
  refuseBots: boolean
  /** Run in order before `create`, after the size bound and the bot refusal: the host's limits. */
  guards?: MiddlewareHandler[]
}

const NO_STORE_JSON = { 'content-type': 'application/json', 'cache-control': 'no-store' }

/** `POST /` and `GET /:uuid` of one search engine, to mount at its path. */
export function searchResource(engine: SearchEngine, options: SearchResourceOptions): Hono {
  const { accessTokens, identity, guards = [] } = options
  const bots = refuseDeclaredBots({ active: options.refuseBots, refused: engine.refusedToBots })
  const app = new Hono()
  app.post('/', limitBody(engine.bodyLimitBytes), bots, ...guards, async (c) => {
    const created = await engine.create(c, () => identity(c))
    return c.body(createdSearchBody(accessTokens, created), 201, { ...NO_STORE_JSON, ...created.headers })
  })
  app.get('/:uuid', async (c) => {
    const uuid = checkedSearchUuid(c.req.param('uuid'))
    if (!accessTokens.verify(c.req.header(ACCESS_TOKEN_HEADER), uuid)) throw noSuchSearch(engine)
    const rateTable = await engine.poll(uuid, c)
    if (rateTable === undefined) throw noSuchSearch(engine)
    return c.body(jsonText(rateTable), 200, NO_STORE_JSON)
  })
  return app
}

/** A search that has routes of its own beside it (the second look): what it hands the host to mount. */
export interface SearchApi {
  /** Where its search is mounted under the host's `/api`: `/second-look`. */
  readonly searchPath: string
  readonly engine: SearchEngine
  /**
   * Its other routes under `/api`, each at its path, mounted in this order before the search (so a path
   * under the search's, such as `/second-look/consent`, is not read as a search uuid). `bearer` routes take
   * a partner's or operator's bearer token: the host's `bearerGuards` run before them.
   */
  routes(): ApiRoute[]
}

/** One of a `SearchApi`'s other routes. */
export interface ApiRoute {
  /** Under the host's `/api`: `/clicks`. */
  path: string
  app: Hono
  /** It takes a partner's or operator's bearer token: the host's `bearerGuards` run before it. */
  bearer?: boolean
}

export interface SearchApiHost extends SearchResourceOptions {
  /** Run before every `bearer` route: the host's limit on refused tokens. */
  bearerGuards?: MiddlewareHandler[]
}

/** A `SearchApi` as one sub-app to mount at `/api`, with the host's tokens, identity and guards. */
export function searchApiRoutes(api: SearchApi, host: SearchApiHost): Hono {
  const app = new Hono()
  for (const route of api.routes()) {
    if (route.bearer) for (const guard of host.bearerGuards ?? []) app.use(`${route.path}/*`, guard)
    app.route(route.path, route.app)
  }
  return app.route(api.searchPath, searchResource(api.engine, host))
}

/** The 201's `CreatedSearch` body: a new access token for the search, and its rate table. */
export function createdSearchBody(accessTokens: AccessTokens, created: CreatedRateTable): string {
  return createdSearchJson(accessTokens.issue(created.searchUuid), jsonText(created.rateTable))
}

/**
 * The `CreatedSearch` envelope around a rate table's JSON text. The upstream's text parsed and passed the
 * contract (`ValidatedBody`), and JSON.parse reads it the same in the browser, so embedding it answers the
 * value the contract accepted without serialising it (~5 KB) a second time per search.
 */
export function createdSearchJson(accessToken: string, rateTableJson: string): string {
  // The keys of `CreatedSearch`; the route tests parse the answer with createdSearchSchema.
  return `{"accessToken":${JSON.stringify(accessToken)},"rateTable":${rateTableJson}}`
}

/** A search's uuid from its path, or a 400 naming the field. */
export function checkedSearchUuid(uuid: string): string {
  if (!UUID_PATTERN.test(uuid)) {
    throw httpError(400, 'bad_request', 'The rate table id must be a UUID', {
      errors: [{ field: 'uuid', reason: 'uuid must be a UUID (8-4-4-4-12 hex digits)' }],
    })
  }
  return uuid
}

function jsonText(body: RateTableBody): string {
  return typeof body === 'string' ? body : JSON.stringify(body)
}

function noSuchSearch(engine: SearchEngine) {
  return httpError(404, 'not_found', `No such ${engine.noun}`)
}
