/**
 * @module The one PII finder over everything a partner sends back
 * (docs/decisions/0097-pii-in-partner-replies.md): an offer's `name`, `display_name`, `offer_details`, `product_type`, `click_url` and
 * `logo_src`, and the reply's `lead_id` and `reason` (masked by `redact.ts` with the same matching). It
 * normalises first and searches after: every form the string decodes to (`pii-decode.ts`: percent and
 * base64 layers, to a bound, refusing what decodes past it), each as canonical streams (`pii-canonical.ts`:
 * any script's digits, compatibility forms, invisible characters and separators gone), searched for each of
 * the lead's values in their canonical spellings (`pii-needles.ts`). A URL is also read across its parts
 * (`pii-url-parts.ts`): its path segments and query keys and values joined in order, and every two of them
 * in either order, so an SSN or an email split over two parameters is whole again. All of it linear in the
 * string (docs/decisions/0114-reply-cpu-budget.md).
 */
import type { Lead } from '../../contract/partner.ts'
import { canonicalOf } from './pii-canonical.ts'
import { decodedForms, MAX_DECODE_DEPTH } from './pii-decode.ts'
import {
  dateNeedles,
  digitNeedles,
  emailNeedles,
  findNeedle,
  fullNameNeedles,
  type Needle,
  type PiiKind,
  wordNeedles,
} from './pii-needles.ts'
import { acrossParts, type ScanMeter } from './pii-url-parts.ts'

/** What the finder saw: one of the lead's values, or an encoding nested past the bound it reads. */
export type PiiFinding = PiiKind | 'nested encoding'

/** Why the value at `where` drops its offer, naming the kind of PII (never the value). */
export function piiProblem(where: string, found: PiiFinding): string {
  return found === 'nested encoding'
    ? `${where} is encoded more than ${MAX_DECODE_DEPTH} layers deep`
    : `${where} carries the lead's ${found}`
}

/**
 * The search of one string as steps: the caller may let the event loop run at each `yield`, and no step
 * reads more than one reading of the string or one needle across a link's parts (a 1,852-character link
 * read whole in one task held the loop 30 ms the first time, docs/decisions/0114-reply-cpu-budget.md).
 */
export type PiiSteps = Generator<void, PiiFinding | undefined, void>

/** Any partner string in, the first thing found (or nothing); `steps` is the same search a step at a time. */
export interface PiiFinder {
  (value: string): PiiFinding | undefined
  steps(value: string): PiiSteps
}

export type { ScanMeter }

/** The lead's values that make an offer unusable: SSN, phone, date of birth, email, full name, street address. */
function leadNeedles(lead: Lead): Needle[] {
  const p = lead.personalInformation
  return [
    ...digitNeedles('SSN', p.ssn),
    ...digitNeedles('phone number', p.primaryPhone),
    ...dateNeedles(p.dateOfBirth),
    ...emailNeedles(p.email),
    ...fullNameNeedles(p.firstName, p.lastName),
    // One word ("Main") is a place name, not an address.
    ...wordNeedles('street address', p.address1, 2),
  ]
}

/** `meter`, when given, counts the characters read and built, the scan's work (tests and benchmarks). */
export function createPiiFinder(lead: Lead, meter?: ScanMeter): PiiFinder {
  // Built on the first string searched: most partners of most leads send back nothing to search.
  let needles: Needle[] | undefined
  const steps = (value: string) => {
    needles ??= leadNeedles(lead)
    return findSteps(value, needles, meter)
  }
  return Object.assign((value: string) => toEnd(steps(value)), { steps })
}

/** The first needle found in any reading of `value`; `nested encoding` when it decodes past the bound. */
export function findIn(value: string, needles: readonly Needle[], meter?: ScanMeter): PiiFinding | undefined {
  return toEnd(findSteps(value, needles, meter))
}

function* findSteps(value: string, needles: readonly Needle[], meter?: ScanMeter): PiiSteps {
  const { forms, tooDeep } = decodedForms(value)
  // Refused on its own, whatever it hides: the forms read are not all the string can be decoded into.
  if (tooDeep) return 'nested encoding'
  for (const form of forms) {
    yield
    if (meter) meter.chars += form.length
    const canonical = canonicalOf(form)
    for (const needle of needles) if (findNeedle(canonical, needle, false).length > 0) return needle.kind
  }
  for (const form of forms) {
    const found = yield* acrossParts(form, needles, meter)
    if (found !== undefined) return found
  }
  return undefined
}

/** Runs the steps with no pause between them: for short strings, and callers with no loop to share. */
function toEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
  }
}
