/**
 * @module `offer-widget partner`: runs the reference partner until the process is stopped.
 */
import { PARTNER_USAGE, parsePartnerArgs, UsageError } from './cli-args.ts'
import type { Command } from './command.ts'
import { LEAD_PATHS } from './reference-partner.ts'
import { startReferencePartner } from './start-reference-partner.ts'

export const partnerCommand: Command = {
  summary: 'run the reference partner (docs/partner-interface.md) on a local port',
  usage: PARTNER_USAGE,
  async run(argv, io) {
    const args = parsePartnerArgs(argv)
    if (args.help) {
      io.stdout(`${PARTNER_USAGE}\n`)
      return 0
    }
    const { help: _help, host, ...options } = args
    const partner = await startReferencePartner({ ...options, hostname: host }).catch((error: unknown) => {
      if ((error as { code?: string }).code === 'EADDRINUSE')
        throw new UsageError(
          `--port ${args.port} is in use on ${host}: pick another, or 0 for a free one`,
          PARTNER_USAGE,
        )
      throw error
    })
    io.stdout(`reference partner listening on ${partner.url}\n`)
    io.stdout(`POST a lead to ${LEAD_PATHS.map((path) => `${partner.url}${path}`).join(' or ')}\n`)
    io.stdout(`check it: npx offer-widget check-partner ${partner.url}/leads\n`)
    if (args.secret === undefined)
      io.stdout('lead_id secret: random for this run (pass --secret to keep ids across restarts)\n')
    io.onStop(partner.close)
    return 0
  },
}
