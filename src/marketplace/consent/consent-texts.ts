/**
 * @module The operator's consent texts (docs/second-look.md, "Consent and its proof"): read from
 * `CONSENT_TEXTS_FILE` (JSON or YAML, `{ version, fcra, tcpa?, submitLabel?, noDecisionNotice,
 * softPullNotice, links, previous? }`), validated with zod and refused at start with every problem named;
 * built in (sandbox-texts.ts, the partner kit's sample leads' words) in sandbox mode. A text's id is its
 * content hash, so an edited text is a new id; `previous` keeps older texts accepted while pages that loaded
 * them are still open. `{button}` in a text is the submit button's label (consent-notices.ts), and the
 * current FCRA text must name it.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { parse as parseYaml } from 'yaml'
import * as z from 'zod/mini'
import { toFieldIssues } from '../../contract/common.ts'
import type { ServedConsentTexts } from '../../contract/consent-notices.ts'
import {
  BUTTON_PLACEHOLDER,
  nameButton,
  noticesShape,
  servedNotices,
  submitLabelOf,
} from './consent-notices.ts'
import {
  SAMPLE_FCRA_TEXT,
  SAMPLE_LINKS,
  SAMPLE_NO_DECISION_NOTICE,
  SAMPLE_SOFT_PULL_NOTICE,
  SAMPLE_TCPA_TEXT,
} from './sandbox-texts.ts'

export type ConsentKind = 'fcra' | 'tcpa'

/** One text the operator has shown: its id (content hash), kind, the newest version that holds it, and itself. */
export interface ConsentTextEntry {
  id: string
  kind: ConsentKind
  version: string
  text: string
}

/** What the BFF serves (`GET /api/second-look/consent`) and every text it accepts in a lead, by exact text. */
export interface OperatorConsentTexts {
  served: ServedConsentTexts
  fcra: ReadonlyMap<string, ConsentTextEntry>
  tcpa: ReadonlyMap<string, ConsentTextEntry>
}

/** At most the characters docs/partner-interface.md's lead takes in `fcraLanguage` and `tcpaLanguage`. */
const MAX_TEXT = 10_000

const consentText = (field: string) =>
  z.pipe(
    z.string({ error: `${field} must be a string: the text shown beside the box, word for word` }),
    z.pipe(
      z.transform((value: string) => value.trim()),
      z
        .string()
        .check(
          z.minLength(1, { error: `${field} must not be empty` }),
          z.maxLength(MAX_TEXT, { error: `${field} must be at most ${MAX_TEXT} characters` }),
        ),
    ),
  )

const version = (field: string) =>
  z.string({ error: `${field} must be a string naming this set of texts, e.g. "2026-11"` }).check(
    z.regex(/^\S(.{0,98}\S)?$/, {
      error: `${field} must be 1-100 characters with no leading or trailing space, e.g. "2026-11"`,
    }),
  )

const setShape = (at: string) => ({
  version: version(`${at}version`),
  fcra: consentText(`${at}fcra`),
  tcpa: z.optional(consentText(`${at}tcpa`)),
})

const KEYS = 'version, fcra, tcpa, submitLabel, noDecisionNotice, softPullNotice, links, previous'

/** An unknown key, or not an object at all, said with the keys there are. */
const objectError = (what: string, keys: string) => (issue: z.core.$ZodRawIssue) =>
  issue.code === 'unrecognized_keys'
    ? `${issue.keys.join(', ')} ${issue.keys.length > 1 ? 'are not keys' : 'is not a key'} of ${what}: use ${keys}`
    : `${what} must be an object { ${keys} }`

const fileSchema = z.strictObject(
  {
    ...setShape(''),
    ...noticesShape,
    previous: z.optional(
      z.array(
        z.strictObject(setShape('previous[].'), {
          error: objectError('an earlier set in previous', 'version, fcra, tcpa'),
        }),
        { error: 'previous must be a list of earlier { version, fcra, tcpa? } sets, newest first' },
      ),
    ),
  },
  { error: objectError('the consent texts', KEYS) },
)
type ConsentTextsFile = z.infer<typeof fileSchema>

export class ConsentTextsError extends Error {
  override name = 'ConsentTextsError'
}

/** The id of a text: the first 16 hex digits of its SHA-256. */
export function consentTextId(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)
}

/**
 * The texts of a parsed file: the current set served, and every text of every set accepted, each under the
 * newest version that holds it (the current set first, then `previous` in its order).
 */
function toOperatorTexts(file: ConsentTextsFile): OperatorConsentTexts {
  const sets = [file, ...(file.previous ?? [])]
  const fcra = new Map<string, ConsentTextEntry>()
  const tcpa = new Map<string, ConsentTextEntry>()
  for (const set of sets) {
    if (!fcra.has(set.fcra)) fcra.set(set.fcra, entry('fcra', set.version, set.fcra))
    if (set.tcpa !== undefined && !tcpa.has(set.tcpa))
      tcpa.set(set.tcpa, entry('tcpa', set.version, set.tcpa))
  }
  const served: ServedConsentTexts = {
    version: file.version,
    fcra: { id: consentTextId(file.fcra), text: file.fcra },
    ...(file.tcpa === undefined ? {} : { tcpa: { id: consentTextId(file.tcpa), text: file.tcpa } }),
    ...servedNotices(file),
  }
  return { served, fcra, tcpa }
}

function entry(kind: ConsentKind, version: string, text: string): ConsentTextEntry {
  return { id: consentTextId(text), kind, version, text }
}

/** What a valid file can still get wrong: a version used twice, one text given as both FCRA and TCPA. */
function fileProblems(file: ConsentTextsFile): string[] {
  const problems: string[] = []
  const label = submitLabelOf(file)
  if (!file.fcra.includes(label))
    problems.push(
      `  fcra: the text does not name the submit button "${label}": write ${BUTTON_PLACEHOLDER} where it names the button (it is filled with submitLabel)`,
    )
  for (const [kind, text] of [
    ['fcra', file.fcra],
    ['tcpa', file.tcpa],
  ] as const)
    if (text !== undefined && text.length > MAX_TEXT)
      problems.push(
        `  ${kind}: with the button named the text has ${text.length} characters, at most ${MAX_TEXT}`,
      )
  const versions = new Set<string>()
  const fcraTexts = new Set<string>()
  const tcpaTexts = new Set<string>()
  for (const [index, set] of [file, ...(file.previous ?? [])].entries()) {
    const at = index === 0 ? '' : `previous.${index - 1}.`
    if (versions.has(set.version)) {
      problems.push(`  ${at}version: "${set.version}" is used twice; give each set of texts its own version`)
    }
    versions.add(set.version)
    fcraTexts.add(set.fcra)
    if (set.tcpa !== undefined) tcpaTexts.add(set.tcpa)
  }
  for (const text of fcraTexts) {
    if (tcpaTexts.has(text)) {
      problems.push(
        '  tcpa: a TCPA text is the same as an FCRA text; each consent needs its own text (FCRA: the credit report; TCPA: calls and texts)',
      )
      break
    }
  }
  return problems
}

/** Parses the texts (JSON is YAML, so YAML unless the format says otherwise); throws naming every problem. */
export function parseConsentTexts(
  source: string,
  options: { format?: 'json' | 'yaml'; origin?: string } = {},
): OperatorConsentTexts {
  const origin = options.origin ?? 'consent texts'
  let raw: unknown
  try {
    raw = options.format === 'json' ? JSON.parse(source) : parseYaml(source)
  } catch (error) {
    throw new ConsentTextsError(
      `${origin}: not valid ${options.format === 'json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    )
  }
  const parsed = fileSchema.safeParse(raw)
  if (!parsed.success) {
    const lines = toFieldIssues(parsed.error).map(
      (issue) => `  ${issue.field === '(body)' ? '(file)' : issue.field}: ${issue.reason}`,
    )
    throw new ConsentTextsError(`${origin} is invalid:\n${lines.join('\n')}\n${FILE_SHAPE}`)
  }
  const file = withButtonNamed(parsed.data)
  const problems = fileProblems(file)
  if (problems.length > 0) throw new ConsentTextsError(`${origin} is invalid:\n${problems.join('\n')}`)
  return toOperatorTexts(file)
}

/** Every text of every set with `{button}` replaced by the submit button's label. */
function withButtonNamed(file: ConsentTextsFile): ConsentTextsFile {
  const label = submitLabelOf(file)
  const named = <T extends { fcra: string; tcpa?: string | undefined }>(set: T): T => ({
    ...set,
    fcra: nameButton(set.fcra, label),
    ...(set.tcpa === undefined ? {} : { tcpa: nameButton(set.tcpa, label) }),
  })
  return { ...named(file), ...(file.previous ? { previous: file.previous.map(named) } : {}) }
}

const FILE_SHAPE =
  'Write it as { "version": "2026-11", "fcra": "<FCRA text naming {button}>", "tcpa": "<TCPA text>", "noDecisionNotice": "<text> or false", "softPullNotice": "<text> or false", "links": { "terms": { "label", "url" } or false, "privacy": ..., "esign": ... }, "previous": [ ... ] } (docs/second-look.md, "Consent and its proof").'

/** Reads `CONSENT_TEXTS_FILE`: `.json` as JSON, anything else as YAML. */
export function loadConsentTexts(file: string): OperatorConsentTexts {
  const origin = `CONSENT_TEXTS_FILE ${file}`
  let source: string
  try {
    source = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new ConsentTextsError(
      `${origin}: cannot be read (${code}); check the path, or unset it in sandbox mode`,
    )
  }
  return parseConsentTexts(source, {
    format: extname(file).toLowerCase() === '.json' ? 'json' : 'yaml',
    origin,
  })
}

/** Sandbox mode's built-in texts: the partner kit's sample texts, so sample leads pass the text check. */
export function sandboxConsentTexts(): OperatorConsentTexts {
  return toOperatorTexts({
    version: 'sandbox',
    fcra: SAMPLE_FCRA_TEXT,
    tcpa: SAMPLE_TCPA_TEXT,
    noDecisionNotice: SAMPLE_NO_DECISION_NOTICE,
    softPullNotice: SAMPLE_SOFT_PULL_NOTICE,
    links: { ...SAMPLE_LINKS },
  })
}
