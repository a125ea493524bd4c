/**
 * @module What `npm start` says once it listens: the address, the mode and why, the `.env` it read, the demo
 * pages and, in sandbox mode, the reports tokens made up for the run. Always as log lines (JSON, for the
 * operator's log pipeline); at a terminal also first as a plain block a person reads, the addresses one a line.
 */
import type { Logger } from 'pino'
import { SANDBOX_REPORTS_PARTNER } from '../partner-kit/simulated-partners.ts'
import type { Config } from './config.ts'
import { DEMO_PATH } from './embed-assets.ts'
import type { EnvFileResult } from './env-file.ts'

export interface StartFacts {
  url: string
  config: Pick<
    Config,
    | 'sandboxMode'
    | 'modeReason'
    | 'serveDemoPages'
    | 'reportsTokenGenerated'
    | 'reportsToken'
    | 'sandboxPartnerReportsToken'
  >
  envFile?: EnvFileResult | undefined
  /** Which demo pages this install can serve. */
  pages: { demo: boolean; playground: boolean }
}

/** The plain block: a heading line, then one `name  address  (note)` line per page. */
export function startBanner({ url, config, pages }: StartFacts): string[] {
  const mode = config.sandboxMode
    ? `sandbox mode: ${config.modeReason}`
    : `production mode: ${config.modeReason}`
  const rows: Array<[string, string, string?]> = [['BFF', url, mode]]
  if (config.serveDemoPages) {
    if (pages.demo) rows.push(['demo page', `${url}${DEMO_PATH}`])
    if (pages.playground) rows.push(['playground', `${url}/`])
  }
  if (config.reportsTokenGenerated)
    rows.push(['partner reports', `${url}/reports`, `token for this run: ${config.reportsToken}`])
  if (config.sandboxPartnerReportsToken)
    rows.push([
      `${SANDBOX_REPORTS_PARTNER.name}'s view`,
      `${url}/reports`,
      `token for this run: ${config.sandboxPartnerReportsToken}`,
    ])
  const width = Math.max(...rows.map(([name]) => name.length))
  return [
    '',
    'offer-widget is running',
    ...rows.map(([name, address, note]) =>
      `  ${name.padEnd(width)}  ${address}${note ? `  (${note})` : ''}`.trimEnd(),
    ),
    ...(config.sandboxMode ? ['  set ENGINE_TOKEN (or BFF_MODE=production) for production rules'] : []),
    '',
  ]
}

/** Logs the start; writes `startBanner` first when `terminal` (stdout is a TTY). */
export function announceStart(
  logger: Logger,
  facts: StartFacts,
  terminal: { write(text: string): unknown } | undefined,
): void {
  const { url, config, envFile, pages } = facts
  terminal?.write(`${startBanner(facts).join('\n')}\n`)
  logger.info({ url }, `offer-widget BFF listening on ${url}`)
  logger.info(
    { mode: config.sandboxMode ? 'sandbox' : 'production', why: config.modeReason },
    config.sandboxMode
      ? `sandbox mode (${config.modeReason}): the embedded sandbox is the upstream, secrets are made up for this run, leads go only to partners on this machine or a private network; set ENGINE_TOKEN (or BFF_MODE=production) for production rules`
      : `production mode (${config.modeReason})`,
  )
  if (envFile) {
    // Names only: the values may be secrets.
    logger.info(
      { set: envFile.set, kept: envFile.kept },
      `read ${envFile.file}: set ${envFile.set.join(', ') || 'nothing'}` +
        (envFile.kept.length > 0 ? `; already in the environment, kept: ${envFile.kept.join(', ')}` : ''),
    )
    for (const warning of envFile.warnings) logger.warn(`${envFile.file}: ${warning}`)
  }
  if (config.serveDemoPages) {
    const links = [
      pages.demo ? `demo page: ${url}${DEMO_PATH}` : '',
      pages.playground ? `playground: ${url}/` : '',
    ].filter(Boolean)
    logger.info(
      links.length > 0
        ? links.join(' · ')
        : 'no demo page or playground here (public/demo.html and dist/site are not in this install)',
    )
  } else {
    logger.info('demo page and playground off in production mode (SERVE_DEMO_PAGES=true serves them)')
  }
  if (config.reportsTokenGenerated) {
    logger.info(
      `partner reports: ${url}/reports (sandbox-mode token for this run: ${config.reportsToken}; set REPORTS_TOKEN to choose one)`,
    )
  }
  if (config.sandboxPartnerReportsToken) {
    logger.info(
      `a partner's own view: ${url}/reports with ${SANDBOX_REPORTS_PARTNER.name}'s token for this run: ${config.sandboxPartnerReportsToken}`,
    )
  }
}
