/**
 * @module The `offer-widget` command line: a small table of subcommands. Later issues add rows.
 */

import { checkPartnerCommand } from './check-partner-command.ts'
import { UsageError } from './cli-args.ts'
import type { CliIo, Command } from './command.ts'
import { partnerCommand } from './partner-command.ts'

export const EXIT_USAGE = 2

export const COMMANDS: Readonly<Record<string, Command>> = {
  partner: partnerCommand,
  'check-partner': checkPartnerCommand,
}

export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length)) + 2
  const rows = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}${command.summary}`)
  return [
    'Usage: offer-widget <command> [options]',
    '',
    'Commands:',
    ...rows,
    `  ${'help'.padEnd(width)}show this help, or a command's: offer-widget help <command>`,
    '',
  ].join('\n')
}

/** Runs one invocation; resolves to the process exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' && rest[0] !== undefined ? COMMANDS[rest[0]] : undefined
    if (name === 'help' && rest[0] !== undefined && topic === undefined) {
      io.stderr(`unknown command ${JSON.stringify(rest[0])}\n\n${helpText()}`)
      return EXIT_USAGE
    }
    io.stdout(topic ? `${topic.usage}\n` : helpText())
    return name === undefined ? EXIT_USAGE : 0
  }
  const command = COMMANDS[name]
  if (command === undefined) {
    io.stderr(`unknown command ${JSON.stringify(name)}\n\n${helpText()}`)
    return EXIT_USAGE
  }
  try {
    return await command.run(rest, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`offer-widget ${name}: ${error.message}\n\n${error.usage}\n`)
      return EXIT_USAGE
    }
    throw error
  }
}

/** The I/O of a real process: the bin passes this. */
export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  onStop(stop) {
    const handler = () => {
      void stop().finally(() => process.exit(0))
    }
    process.once('SIGINT', handler)
    process.once('SIGTERM', handler)
  },
}
