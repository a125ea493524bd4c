/**
 * @module The operator's notices and links in `CONSENT_TEXTS_FILE` (docs/second-look.md, "Consent and its
 * proof"), served with the consent texts: the no-decision notice, the soft-pull line, and the Terms of
 * Service, Privacy Policy and E-SIGN consent links. Every key is required: an operator leaves one out only by
 * writing `false`, so no notice goes missing because a file predates it. Also the submit button the texts
 * name: `submitLabel`, filled in for `{button}` in the texts, so the texts and the button agree by
 * construction.
 */
import * as z from 'zod/mini'
import type { ServedConsentTexts } from '../../contract/consent-notices.ts'
import { httpUrlField } from '../../contract/http-url.ts'
import { SAMPLE_SUBMIT_LABEL } from './sandbox-texts.ts'

/** Where a text names the submit button; filled with `submitLabel` as the file is read. */
export const BUTTON_PLACEHOLDER = '{button}'

const notice = (key: string, example: string) =>
  z.union([z.literal(false), z.string().check(z.trim(), z.minLength(1), z.maxLength(2_000))], {
    error: `${key} is missing or not a text: write the notice as it is shown ("${example}"), or false to show none (say why in a comment)`,
  })

const link = (key: string, label: string) =>
  z.union(
    [
      z.literal(false),
      z.strictObject({
        label: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
        url: httpUrlField(`links.${key}.url`, {
          httpsOnly: true,
          hostname: true,
          example: `https://example.com/${key}`,
        }),
      }),
    ],
    {
      error: `links.${key} is missing or malformed: write { label: "${label}", url: "https://..." }, or false to show none`,
    },
  )

/** The keys of the file beside the texts. */
export const noticesShape = {
  submitLabel: z.optional(
    z
      .string({ error: 'submitLabel must be the text of the submit button, e.g. "See my loan offers"' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'submitLabel must not be empty' }),
        z.maxLength(60, { error: 'submitLabel must be at most 60 characters' }),
      ),
  ),
  noDecisionNotice: notice(
    'noDecisionNotice',
    'If you did not receive an offer from a lending partner, no credit decision has been made',
  ),
  softPullNotice: notice('softPullNotice', "Checking your rate won't affect your credit score"),
  links: z.strictObject(
    {
      terms: link('terms', 'Terms of Service'),
      privacy: link('privacy', 'Privacy Policy'),
      esign: link('esign', 'E-SIGN consent'),
    },
    { error: 'links is missing: write { terms, privacy, esign }, each { label, url } or false' },
  ),
}

export interface NoticesFile {
  submitLabel?: string | undefined
  noDecisionNotice: string | false
  softPullNotice: string | false
  links: Record<'terms' | 'privacy' | 'esign', { label: string; url: string } | false>
}

/** The label the texts name and the button carries: the file's, else the widget's own English label. */
export function submitLabelOf(file: NoticesFile): string {
  return file.submitLabel ?? SAMPLE_SUBMIT_LABEL
}

/** `text` with the button named where it says `{button}`. */
export function nameButton(text: string, label: string): string {
  return text.replaceAll(BUTTON_PLACEHOLDER, label)
}

/** What is served beside the texts: the label, and each notice and link the operator did not leave out. */
export function servedNotices(
  file: NoticesFile,
): Pick<ServedConsentTexts, 'submitLabel' | 'notices' | 'links'> {
  const links: ServedConsentTexts['links'] = {}
  for (const [kind, value] of Object.entries(file.links) as Array<
    [keyof NoticesFile['links'], NoticesFile['links']['terms']]
  >)
    if (value !== false) links[kind] = { label: value.label, url: value.url }
  return {
    submitLabel: submitLabelOf(file),
    notices: {
      ...(file.noDecisionNotice === false ? {} : { noDecision: file.noDecisionNotice }),
      ...(file.softPullNotice === false ? {} : { softPull: file.softPullNotice }),
    },
    links,
  }
}
