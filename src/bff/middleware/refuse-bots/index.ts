/**
 * @module Routes that start a billed upstream search refuse a declared bot (its `User-Agent` names a
 * crawler, HTTP library or headless browser) with 403, before the per-IP limit and without calling the
 * upstream: a search a crawler runs is paid for and shows nobody anything. 403 rather than an empty rate
 * table, which would be made-up data (docs/offer-search-api.md, "Decisions: the BFF"). In sandbox mode
 * nothing is billed, so scripts and curl may try the routes there.
 */
import type { MiddlewareHandler } from 'hono'
import { isDeclaredBot } from '../../../contract/declared-bot.ts'
import { httpError } from '../../../http/errors.ts'

export interface RefuseBotsOptions {
  /** False in sandbox mode: no search is billed, so nothing is refused. */
  billed: boolean
}

export function refuseBots(options: RefuseBotsOptions): MiddlewareHandler {
  return async function refuseBots(c, next) {
    if (options.billed && isDeclaredBot(c.req.header('user-agent'))) {
      throw httpError(
        403,
        'forbidden',
        'Declared bots do not run offer searches (each one is billed): this User-Agent names a crawler, ' +
          'script or headless browser. Search from a browser, or use the sandbox for automated tests.',
      )
    }
    await next()
  }
}
