/**
 * @module `offer-widget check-partner <url>`: runs the conformance checker and prints its report, as text
 * or as JSON for CI; the exit code is 1 when any check fails.
 */
import { CHECK_PARTNER_USAGE, parseCheckPartnerArgs } from './cli-args.ts'
import type { Command } from './command.ts'
import { checkPartner } from './conformance-checker.ts'
import { formatReport } from './format-report.ts'

export const checkPartnerCommand: Command = {
  summary:
    'send synthetic leads to a partner endpoint and check every reply against docs/partner-interface.md',
  usage: CHECK_PARTNER_USAGE,
  async run(argv, io) {
    const args = parseCheckPartnerArgs(argv)
    if (args.help) {
      io.stdout(`${CHECK_PARTNER_USAGE}\n`)
      return 0
    }
    const report = await checkPartner(args.url, {
      headers: args.headers,
      windowMs: args.windowMs,
      concurrency: args.concurrency,
    })
    io.stdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report))
    return report.ok ? 0 : 1
  },
}
