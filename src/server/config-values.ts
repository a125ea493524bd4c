/**
 * @module What the config module (`config.ts`) judges a value by, beside its zod schema: what an error may
 * echo of a value (secrets never, URLs their scheme and host only), the `PARTNER_*` credentials, and the
 * shape of `ALLOWED_ORIGINS` entries (`TRUST_PROXY` is read by `compileTrust`, the one parser the server
 * uses). It reads no environment: values come in as arguments.
 */
import { safeHttpUrl } from '../contract/http-url.ts'

/** Variables whose value can carry a secret: shown with credentials removed, or not at all. */
const SECRET_VALUES =
  /^(ENGINE_TOKEN|SESSION_SECRET|LEAD_ID_HASH_SECRET|REPORTS_TOKEN|SERVER_API_KEYS|SANDBOX_.*_TOKEN|PARTNER_.*)$/
/** Variables holding URLs: shown as scheme and host (`urlOrigin`), and not at all when unparsable. */
const URL_VALUES = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'ENGINE_BASE_URL_TEST',
  'ENGINE_BASE_URL_PRODUCTION',
  'PUBLIC_BASE_URL',
  'ALLOWED_ORIGINS',
])

/**
 * A URL as an error or log may show it: the password masked (`user:***@`), a user name alone masked too (it
 * is often a token, `https://TOKEN@host`), every query value masked (`?key=***`), the fragment masked.
 * `undefined` when the text does not parse as a URL with a host (`user:pw@host` parses, as scheme `user:`):
 * it could hold anything, so nothing of it is shown.
 */
export function redactedUrl(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return undefined
  }
  if (url.host === '') return undefined
  const user = url.password !== '' ? `${url.username}:***@` : url.username !== '' ? '***@' : ''
  const query =
    url.search === ''
      ? ''
      : `?${url.search
          .slice(1)
          .split('&')
          .map((part) => (part.includes('=') ? `${part.slice(0, part.indexOf('='))}=***` : '***'))
          .join('&')}`
  return `${url.protocol}//${user}${url.host}${url.pathname}${query}${url.hash === '' ? '' : '#***'}`
}

/**
 * A URL as a config error shows it: its scheme and host (with the port), and nothing it carries after or
 * before them. User info becomes `***@`, a path, query or fragment `/***` (a bare `/` stays): a base URL's
 * path may hold a tenant or a key (`https://host/P4THSECRET`) as surely as its query does. `undefined` when
 * the text does not parse as a URL with a host.
 */
function urlOrigin(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return undefined
  }
  if (url.host === '') return undefined
  const user = url.username !== '' || url.password !== '' ? '***@' : ''
  const bare = (url.pathname === '' || url.pathname === '/') && url.search === '' && url.hash === ''
  return `${url.protocol}//${user}${url.host}${bare ? url.pathname : '/***'}`
}

/**
 * What a config error may echo of a bad value: secrets never; a URL, in whatever variable, as `urlOrigin`;
 * a URL variable's value that is no URL, never. `undefined` when nothing of it may be shown.
 */
export function shown(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (SECRET_VALUES.test(name)) return undefined
  const origin = urlOrigin(value)
  if (origin !== undefined || URL_VALUES.has(name)) return origin
  return value
}

/** The end of a config error line about `value`: the value as `shown`, or why it is not shown. */
export function gotValue(name: string, value: string | undefined): string {
  if (value === undefined) return ''
  const show = shown(name, value)
  if (show !== undefined) return ` (got ${JSON.stringify(show)})`
  return SECRET_VALUES.test(name)
    ? ' (value not shown: it is a secret)'
    : ' (value not shown: it is not a URL and may hold a credential)'
}

/** `PARTNER_<NAME>` variables: the registry names them instead of holding credentials in its file. */
export function partnerSecrets(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (/^PARTNER_[A-Z0-9_]+$/.test(name) && value !== undefined && value !== '') out[name] = value
  }
  return out
}

export function isOrigin(value: string): boolean {
  const href = safeHttpUrl(value)
  return href !== undefined && new URL(href).origin === value
}
