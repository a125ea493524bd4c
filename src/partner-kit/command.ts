/**
 * @module The shape of a CLI subcommand and of the I/O it gets, so commands run the same from the bin and
 * from tests (no process globals inside a command).
 */

export interface CliIo {
  stdout(text: string): void
  stderr(text: string): void
  /** Calls `stop` once when the process is asked to end (SIGINT, SIGTERM); tests stop servers themselves. */
  onStop(stop: () => Promise<void>): void
}

export interface Command {
  /** One line for `offer-widget help`. */
  summary: string
  usage: string
  /** Resolves to the exit code; a long-running command resolves once it is up. */
  run(argv: readonly string[], io: CliIo): Promise<number>
}
