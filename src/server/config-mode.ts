/**
 * @module Which rules the server runs under, decided once at start and said in the start log with its
 * reason. Sandbox mode (the default with no `ENGINE_TOKEN`): the embedded sandbox is the upstream, secrets
 * are made up per process, demo pages are served, limits are loose, and leads go only to partners on this
 * machine or a private network (the registry refuses a public endpoint). Production mode (`ENGINE_TOKEN`,
 * or `BFF_MODE=production` for a loan-only server with no offer-search account): secrets, the public base
 * URL and the consent texts are required, and partners must be public https endpoints. Nothing mixes the
 * two: a production signal in sandbox mode stops the start with the fix (docs/decisions/0117-modes-and-secrets.md).
 */

type Mode = 'sandbox' | 'production'

export interface ModeChoice {
  mode: Mode
  /** Why, in the start log's words: `ENGINE_TOKEN is set`, `BFF_MODE=production`, ... */
  why: string
  /** False on a loan-only production server (no `ENGINE_TOKEN`): the offer-search routes are off. */
  offerSearch: boolean
}

export interface ModeInput {
  BFF_MODE?: Mode | undefined
  ENGINE_TOKEN?: string | undefined
  NODE_ENV: 'development' | 'production' | 'test'
}

export function chooseMode(e: ModeInput): ModeChoice {
  if (e.BFF_MODE === 'production') {
    return {
      mode: 'production',
      why:
        e.ENGINE_TOKEN === undefined
          ? 'BFF_MODE=production, no ENGINE_TOKEN: second look only, offer search off'
          : 'BFF_MODE=production',
      offerSearch: e.ENGINE_TOKEN !== undefined,
    }
  }
  if (e.BFF_MODE === 'sandbox') return { mode: 'sandbox', why: 'BFF_MODE=sandbox', offerSearch: true }
  if (e.ENGINE_TOKEN !== undefined)
    return { mode: 'production', why: 'ENGINE_TOKEN is set', offerSearch: true }
  return { mode: 'sandbox', why: 'no ENGINE_TOKEN and no BFF_MODE', offerSearch: true }
}

/**
 * Settings that cannot go together with the chosen mode, one line each with the fix. `raw` is the
 * environment as given (a token of only spaces is not a token).
 */
export function modeProblems(
  e: ModeInput,
  choice: ModeChoice,
  raw: Record<string, string | undefined>,
): string[] {
  const problems: string[] = []
  if (e.BFF_MODE === 'sandbox' && e.ENGINE_TOKEN !== undefined) {
    problems.push(
      '  BFF_MODE: sandbox with ENGINE_TOKEN set would run real, billed searches under sandbox rules; unset ENGINE_TOKEN to try the sandbox, or set BFF_MODE=production',
    )
  }
  if (choice.mode === 'sandbox' && e.BFF_MODE === undefined && e.NODE_ENV === 'production') {
    // A production deployment that lost its token (an empty secret mount, a misnamed variable) must not
    // come up as a sandbox with made-up secrets, loose limits, sample consent texts and the demo pages.
    problems.push(
      '  ENGINE_TOKEN: missing or empty with NODE_ENV=production (an empty secret mount?); set it, or BFF_MODE=production for a server with no offer search (second look only), or BFF_MODE=sandbox to run the sandbox on purpose',
    )
  }
  if (raw.ENGINE_TOKEN !== undefined && raw.ENGINE_TOKEN !== '' && raw.ENGINE_TOKEN.trim() === '') {
    problems.push('  ENGINE_TOKEN: only spaces; paste the token, or leave the variable empty for the sandbox')
  }
  return problems
}
