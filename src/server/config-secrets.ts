/**
 * @module The rules every secret of the environment meets (issue 44: `REPORTS_TOKEN=x`, a `SESSION_SECRET`
 * of 32 `a`s and one value shared by every secret all started): each of ours is strong (`secretWeakness`:
 * length, variety, no repeated piece), and no two variables hold the same value, the upstream's token
 * included, so one leak is never two. Messages name the variable and the fix, never a value.
 */
import { SECRET_FIX, secretWeakness } from '../http/server-secret.ts'

export interface SecretInput {
  ENGINE_TOKEN?: string | undefined
  SESSION_SECRET?: string | undefined
  LEAD_ID_HASH_SECRET?: string | undefined
  REPORTS_TOKEN?: string | undefined
  SERVER_API_KEYS: string[]
}

/** One line per problem, in config's format (two spaces, the variable, the fix). */
export function secretProblems(e: SecretInput): string[] {
  const ours: Array<[string, string | undefined]> = [
    ['SESSION_SECRET', e.SESSION_SECRET],
    ['LEAD_ID_HASH_SECRET', e.LEAD_ID_HASH_SECRET],
    ['REPORTS_TOKEN', e.REPORTS_TOKEN],
    ...e.SERVER_API_KEYS.map((key, i): [string, string] => [`SERVER_API_KEYS: key ${i + 1}`, key]),
  ]
  const problems: string[] = []
  for (const [name, value] of ours) {
    const weakness = value === undefined ? undefined : secretWeakness(value)
    if (weakness !== undefined)
      problems.push(`  ${labelled(name)} ${weakness}; ${SECRET_FIX} (value not shown)`)
  }
  const holders = new Map<string, string>()
  for (const [name, value] of [['ENGINE_TOKEN', e.ENGINE_TOKEN] as [string, string | undefined], ...ours]) {
    if (value === undefined) continue
    const first = holders.get(value)
    if (first === undefined) holders.set(value, name)
    else
      problems.push(`  ${labelled(name)} holds the same value as ${first}; give each its own (${SECRET_FIX})`)
  }
  return problems
}

/** `SESSION_SECRET:`, or `SERVER_API_KEYS: key 2` as it is (config's lines start with the variable and a colon). */
const labelled = (name: string) => (name.includes(':') ? name : `${name}:`)
