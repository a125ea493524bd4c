/**
 * @module The one test of "this user agent declares itself a bot" (crawler, HTTP library, script, headless
 * browser): isbot's maintained list, never one of our own. Server code only; the widget never imports it.
 *
 * One exception, for real visitors: an Android app's WebView (`; wv)` with Chrome's engine) whose app appends
 * its HTTP library's token (`okhttp/4.9.2`) is a browser with a person behind it, and isbot reads the token as
 * a library. Such a user agent is judged without those trailing tokens; anything else in it still counts.
 */
import { isbot } from 'isbot'

const ANDROID_WEBVIEW = /; wv\) AppleWebKit\/[\d.]+ \(KHTML, like Gecko\) Version\/[\d.]+ Chrome\/[\d.]+ /
const TRAILING_LIBRARY_TOKENS = /(?:\s+(?:okhttp|cronet|Dalvik)\/[\w.+-]+)+\s*$/i

export function isDeclaredBot(userAgent: string | undefined): boolean {
  if (userAgent !== undefined && ANDROID_WEBVIEW.test(userAgent)) {
    return isbot(userAgent.replace(TRAILING_LIBRARY_TOKENS, ''))
  }
  return isbot(userAgent)
}
