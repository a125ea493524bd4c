/**
 * @module The one test of "this user agent declares itself a bot" (crawler, HTTP library, script, headless
 * browser): isbot's maintained list, never one of our own. Server code only; the widget never imports it.
 */
import { isbot } from 'isbot'

export function isDeclaredBot(userAgent: string | undefined): boolean {
  return isbot(userAgent)
}
