/**
 * @module `.env` for `npm start`, `npm run start:prod` and `npm run sandbox`, read strictly: a byte-order
 * mark is dropped (it would rename the first variable), and a value cut at an unquoted `#` is named in a
 * warning (never its value). The only other reader of the environment's sources beside `config.ts`.
 */
import { existsSync, readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'

/** What `applyEnvFile` did, by variable name (never a value): those it set, those the environment kept. */
export interface EnvFileResult {
  file: string
  set: string[]
  /** Named in the file and already in the environment (even empty): the environment's value stays. */
  kept: string[]
  /** Lines the file's syntax reads otherwise than they look (an unquoted `#` cuts a value), with the fix. */
  warnings: string[]
}

/**
 * `.env` (in the working directory) for `npm start`, `npm run start:prod` and `npm run sandbox`: each
 * variable it names is set unless the environment already has it, the precedence of Node's `--env-file`.
 * `undefined` when there is no such file. Done here rather than with `--env-file-if-exists`, which prints a
 * "not found" line on every start without the file (every container start) and only acts when the flag is
 * on the command line (not for `node dist/server/server/start-server.js`).
 */
export function applyEnvFile(
  file = '.env',
  env: Record<string, string | undefined> = process.env,
): EnvFileResult | undefined {
  if (!existsSync(file)) return undefined
  const result: EnvFileResult = { file, set: [], kept: [], warnings: [] }
  // A byte-order mark (Windows editors save one) would otherwise become part of the first variable's name.
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '')
  result.warnings = envFileWarnings(text)
  const parsed = parseEnv(text)
  for (const name of Object.keys(parsed).sort()) {
    const value = parsed[name]
    if (value === undefined) continue
    if (env[name] !== undefined) {
      result.kept.push(name)
    } else {
      env[name] = value
      result.set.push(name)
    }
  }
  return result
}

/**
 * `.env` lines whose unquoted value holds a `#` with no space before it (`REPORTS_TOKEN=Zq9#kL...`): the
 * `#` starts a comment, so the value is cut there. Named by variable, never by value.
 */
function envFileWarnings(text: string): string[] {
  const warnings: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line)
    const value = match?.[2] ?? ''
    if (!match || /^["'`]/.test(value)) continue
    const hash = value.indexOf('#')
    if (hash > 0 && !/\s/.test(value[hash - 1] ?? '')) {
      warnings.push(
        `${match[1]}: the value is cut at "#" (an unquoted # starts a comment); quote the value if # is part of it`,
      )
    }
  }
  return warnings
}
