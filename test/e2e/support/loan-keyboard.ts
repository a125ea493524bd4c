/**
 * @module The widget's loan application filled with the keyboard only, as a visitor without a mouse
 * would: Tab into the widget, type into each text field, arrow through each list, Space on a choice or a
 * box, Enter on Continue. One driver for Chromium (Playwright) and the other engines (engines.ts): each
 * step reads what has focus in the page (through shadow roots) and answers it with real key presses.
 */
import type { Page } from 'playwright-core'
import type { KeyPress } from './engines.ts'

/** What has focus: the control's field (the suffix of its id, or of its radio group's name) and state. */
export interface FocusedControl {
  tag: string
  type: string
  field: string
  value: string
  checked: boolean
  options: string[]
  selectedIndex: number
  text: string
  className: string
  /** Inside the widget (its shadow root, or an `.ow-root`). */
  inWidget: boolean
}

/** Runs in the page (serialised): must not close over anything. */
export function focusedControl(): FocusedControl | null {
  let element = document.activeElement as HTMLElement | null
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement as HTMLElement
  if (!element || element === document.body) return null
  const control = element as HTMLInputElement
  const key = control.type === 'radio' ? control.name : control.id
  const select = control.tagName === 'SELECT' ? (element as HTMLSelectElement) : undefined
  return {
    tag: control.tagName.toLowerCase(),
    type: control.type ?? '',
    field: /-([A-Za-z0-9]+)$/.exec(key ?? '')?.[1] ?? '',
    value: control.value ?? '',
    checked: control.checked === true,
    options: select ? [...select.options].map((o) => o.value) : [],
    selectedIndex: select ? select.selectedIndex : -1,
    text: (control.textContent ?? '').trim(),
    className: typeof control.className === 'string' ? control.className : '',
    inWidget: control.getRootNode() !== document || control.closest('.ow-root') !== null,
  }
}

/** A synthetic applicant (reserved SSN range, example.com, 555-01xx): `n` makes its date of birth its own. */
export function applicant(n: number): Record<string, string> {
  const day = String(1 + (n % 28)).padStart(2, '0')
  return {
    purpose: 'debt_consolidation',
    loanAmount: '12000',
    firstName: 'Keyboard',
    lastName: 'Applicant',
    email: 'keyboard.applicant@example.com',
    primaryPhone: '2025550143',
    // As the field asks for it: MM/DD/YYYY.
    dateOfBirth: `04/${day}/1985`,
    address1: '1 Example Street',
    city: 'Example City',
    state: 'CA',
    zipcode: '94105',
    propertyStatus: 'rent',
    employmentStatus: 'employed',
    employmentPayFrequency: 'biweekly',
    // The first radio of each choice: annual income, a numeric score.
    incomeKind: 'annual',
    annualIncome: '52000',
    creditKind: 'score',
    providedNumericCreditScore: '640',
    ssn: `98765432${n % 10}`,
  }
}

export interface KeyboardPage {
  press(keys: readonly KeyPress[]): Promise<void>
  focused(): Promise<FocusedControl | null>
}

/** The keys that answer the focused control; `undefined` when it is one to move past. */
function keysFor(control: FocusedControl, values: Record<string, string>): KeyPress[] | undefined {
  const wanted = values[control.field]
  if (control.tag === 'select' && wanted !== undefined) {
    const steps = control.options.indexOf(wanted) - control.selectedIndex
    return steps > 0 ? Array.from({ length: steps }, () => 'ArrowDown' as const) : []
  }
  if (control.type === 'radio') return control.checked ? [] : ['Space']
  if (control.tag === 'input' && wanted !== undefined && control.value === '') return [{ text: wanted }]
  return undefined
}

/**
 * Tabs from wherever focus is to the widget's current step and fills it: every field the applicant has a
 * value for, nothing else (optional fields are left empty, the TCPA box unticked; the FCRA box only with
 * `consent`). Stops on the step's main button (Continue or Submit) without pressing it; returns the
 * fields it filled.
 */
export async function fillStep(
  page: KeyboardPage,
  values: Record<string, string>,
  options: { fcra: boolean },
): Promise<string[]> {
  const filled: string[] = []
  for (let presses = 0; presses < 80; presses++) {
    await page.press(['Tab'])
    const control = await page.focused()
    if (!control?.inWidget) continue
    if (control.className.includes('ow-loan-next')) return filled
    if (control.type === 'checkbox') {
      if (control.field === 'fcra' && options.fcra && !control.checked) await page.press(['Space'])
      continue
    }
    const keys = keysFor(control, values)
    if (keys === undefined) continue
    await page.press(keys)
    filled.push(control.field)
  }
  throw new Error(
    `the application's step has no Continue or Submit button reachable by Tab (filled ${filled})`,
  )
}

/** Playwright's keyboard as a {@link KeyboardPage}. */
export function playwrightKeyboard(page: Page): KeyboardPage {
  return {
    async press(keys) {
      for (const key of keys) {
        if (typeof key !== 'string') await page.keyboard.type(key.text)
        else await page.keyboard.press(key === 'selectAll' ? 'Control+A' : key)
      }
    },
    focused: () => page.evaluate(focusedControl),
  }
}

/**
 * The whole application, FCRA box ticked, submitted: from focus at its current step's heading (or just
 * before its first field), through `waitForStep(n)` after each Continue.
 */
export async function applyWithKeyboard(
  page: KeyboardPage,
  values: Record<string, string>,
  waitForStep: (step: number) => Promise<unknown>,
): Promise<void> {
  for (let step = 1; step <= 4; step++) {
    await fillStep(page, values, { fcra: false })
    await page.press(['Enter'])
    await waitForStep(step + 1)
  }
  await fillStep(page, values, { fcra: true })
  await page.press(['Enter'])
}
