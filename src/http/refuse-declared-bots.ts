/**
 * @module Routes that start paid or regulated work refuse a declared bot (its `User-Agent` names a crawler,
 * HTTP library or headless browser) with 403, before the per-IP limit and before anything is sent: an offer
 * search a crawler runs is billed and shows nobody anything; a lead a script sends goes to lending partners
 * with nobody behind it. 403 rather than an empty answer, which would be made-up data
 * (docs/decisions/0022-declared-bots.md). In sandbox mode nothing is billed and no real partner is asked, so scripts and curl
 * may try the routes there. One middleware for the BFF and the marketplace: the rule is written once.
 */
import type { MiddlewareHandler } from 'hono'
import { isDeclaredBot } from '../contract/declared-bot.ts'
import { httpError } from './errors.ts'

export interface RefuseDeclaredBotsOptions {
  /** False in sandbox mode: nothing is billed or sent to a real partner, so nothing is refused. */
  active: boolean
  /** What the route does that a bot may not, for the 403's message: "run offer searches (each one is billed)". */
  refused: string
}

export function refuseDeclaredBots(options: RefuseDeclaredBotsOptions): MiddlewareHandler {
  const message =
    `Declared bots do not ${options.refused}: this User-Agent names a crawler, script or headless browser. ` +
    'Send it from a browser, or use the sandbox for automated tests.'
  return async function refuseDeclaredBots(c, next) {
    if (options.active && declaredBot(c.req.header('user-agent'))) throw httpError(403, 'forbidden', message)
    await next()
  }
}

/** User-Agents remembered; past it the memory starts over. A visitor's is one of a few hundred in use. */
const REMEMBERED_AGENTS = 2_000
/** Longer ones are judged each time, so a flood of long made-up agents cannot fill the memory. */
const REMEMBERED_LENGTH = 400
let judged = new Map<string, boolean>()

/**
 * `isDeclaredBot`, remembered per User-Agent: its one large regular expression was 3-4 % of the server's time
 * on a proxied search (issue 43's profile), and the same few agents ask again and again.
 */
function declaredBot(userAgent: string | undefined): boolean {
  if (userAgent === undefined || userAgent.length > REMEMBERED_LENGTH) return isDeclaredBot(userAgent)
  const known = judged.get(userAgent)
  if (known !== undefined) return known
  const bot = isDeclaredBot(userAgent)
  if (judged.size >= REMEMBERED_AGENTS) judged = new Map()
  judged.set(userAgent, bot)
  return bot
}
