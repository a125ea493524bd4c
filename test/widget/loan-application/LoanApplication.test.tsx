/**
 * @module `<LoanApplication>` as a visitor meets it: steps with progress, Next judging only its step, Back
 * keeping every answer, errors inline and announced with focus on the first, the controls' autofill tokens
 * and keyboards, the masked SSN, es-US labels, and its CSS delivered once per root.
 */
import { readFileSync } from 'node:fs'
import { screen, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { DEFAULT_LABELS } from '../../../src/widget/labels.ts'
import { DEFAULT_LOAN_LABELS } from '../../../src/widget/loan-application/loan-labels.ts'
import { LOAN_LABELS_ES_US } from '../../../src/widget/loan-application/loan-labels-es-us.ts'
import { LEAD } from './loan-fixtures.ts'
import { consentRoute, server, setupLoanTests } from './loan-test-server.ts'
import { descriptionOf, renderApplication } from './render-application.tsx'

setupLoanTests()

const { legalInformation: _, ...PREFILL } = LEAD
const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement

describe('steps', () => {
  test('one form named by its heading, step 1 of 5 shown as text and as a named progress bar', () => {
    server.use(consentRoute())
    renderApplication()
    const form = screen.getByRole('form', { name: 'Find your loan offers' })
    expect(within(form).getByRole('heading', { level: 2, name: 'Find your loan offers' })).toBeTruthy()
    expect(within(form).getByRole('heading', { level: 3, name: 'Your loan' })).toBeTruthy()
    expect(screen.getByText('Step 1 of 5')).toBeTruthy()
    const bar = screen.getByRole('progressbar', { name: 'Application progress' })
    expect([bar.getAttribute('value'), bar.getAttribute('max')]).toEqual(['1', '5'])
    // No Back on the first step; Continue is a real submit button, so Enter in a field presses it.
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Continue' }).getAttribute('type')).toBe('submit')
  })

  test('Next with invalid fields stays, marks each under it, announces the summary, and focuses the first', async () => {
    server.use(consentRoute())
    const app = renderApplication()
    await app.next()
    expect(screen.getByText('Step 1 of 5')).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe('Please correct the 2 highlighted fields.')
    const purpose = field('What is the loan for?')
    expect(document.activeElement).toBe(purpose)
    expect(purpose.getAttribute('aria-invalid')).toBe('true')
    expect(descriptionOf(purpose)).toBe('Choose what the loan is for.')
    expect(descriptionOf(field('How much do you want to borrow?'))).toBe('Enter how much you want to borrow.')
    // Answering a field clears its error at once.
    await app.user.selectOptions(purpose, 'debt_consolidation')
    expect(purpose.hasAttribute('aria-invalid')).toBe(false)
  })

  test('Next judges only its own step; Enter submits the step; Back keeps every answer', async () => {
    server.use(consentRoute())
    const app = renderApplication()
    await app.user.selectOptions(field('What is the loan for?'), 'home_improvement')
    await app.user.type(field('How much do you want to borrow?'), '8,000{Enter}')
    expect(screen.getByText('Step 2 of 5')).toBeTruthy()
    // Focus on the new step's heading, so a screen reader reads where the visitor is.
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'About you' }))
    expect(screen.queryByRole('alert')?.textContent).toBe('')
    await app.user.type(field('First name'), 'Synthetic')
    await app.user.click(screen.getByRole('button', { name: 'Back' }))
    expect(screen.getByText('Step 1 of 5')).toBeTruthy()
    expect(field('What is the loan for?').value).toBe('home_improvement')
    expect(field('How much do you want to borrow?').value).toBe('8,000')
    await app.next()
    expect(field('First name').value).toBe('Synthetic')
  })

  test('a date of birth under 18 is refused with why (a rule the schema cannot know)', async () => {
    server.use(consentRoute())
    const app = renderApplication({
      prefill: {
        ...PREFILL,
        personalInformation: {
          ...PREFILL.personalInformation,
          dateOfBirth: `${new Date().getFullYear() - 10}-01-01`,
        },
      },
    })
    await app.next()
    await app.next()
    expect(screen.getByText('Step 2 of 5')).toBeTruthy()
    expect(descriptionOf(field('Date of birth (MM/DD/YYYY)'))).toBe(DEFAULT_LOAN_LABELS.loanDateOfBirthAge)
    expect(document.activeElement).toBe(field('Date of birth (MM/DD/YYYY)'))
  })
})

describe('controls', () => {
  test('standard autocomplete tokens and phone keyboards; optional fields say so', async () => {
    server.use(consentRoute())
    const app = renderApplication({ prefill: PREFILL })
    const attrs = (label: string) => {
      const input = field(label)
      return [input.getAttribute('autocomplete'), input.getAttribute('inputmode'), input.getAttribute('type')]
    }
    expect(attrs('How much do you want to borrow?')).toEqual(['transaction-amount', 'decimal', 'text'])
    await app.next()
    expect(attrs('First name')).toEqual(['given-name', null, 'text'])
    expect(attrs('Last name')).toEqual(['family-name', null, 'text'])
    expect(attrs('Email')).toEqual(['email', 'email', 'email'])
    expect(attrs('Phone number')).toEqual(['tel-national', 'tel', 'tel'])
    expect(attrs('Date of birth (MM/DD/YYYY)')).toEqual(['bday', 'numeric', 'text'])
    await app.next()
    expect(attrs('Street address')).toEqual(['address-line1', null, 'text'])
    expect(attrs('Apartment, suite or unit (optional)')).toEqual(['address-line2', null, 'text'])
    expect(attrs('City')).toEqual(['address-level2', null, 'text'])
    expect(attrs('ZIP code')).toEqual(['postal-code', 'numeric', 'text'])
    expect(field('State').getAttribute('autocomplete')).toBe('address-level1')
    // The 53 values of the lead's state (50 states, DC, PR, VI), by name, after "Choose…".
    const states = within(field('State')).getAllByRole('option')
    expect(states).toHaveLength(54)
    expect(states.find((o) => o.getAttribute('value') === 'VI')?.textContent).toBe('U.S. Virgin Islands')
    expect(field('Do you rent or own your home? (optional)').tagName).toBe('SELECT')
    await app.next()
    expect(attrs('Credit score (300 to 850)')).toEqual(['off', 'numeric', 'text'])
    expect(attrs('Yearly income before taxes')).toEqual(['off', 'decimal', 'text'])
  })

  test('income and credit: a choice in a fieldset, then the one field it asks', async () => {
    server.use(consentRoute())
    const app = renderApplication({ prefill: PREFILL })
    await app.toLastStep()
    await app.user.click(screen.getByRole('button', { name: 'Back' }))
    const credit = screen.getByRole('group', { name: 'Your credit' })
    expect(field('Credit score (300 to 850)').value).toBe('700')
    expect(screen.queryByLabelText('Credit rating')).toBeNull()
    await app.user.click(within(credit).getByRole('radio', { name: 'I will pick a rating' }))
    expect(screen.queryByLabelText('Credit score (300 to 850)')).toBeNull()
    expect(field('Credit rating').value).toBe('')
    const income = screen.getByRole('group', { name: 'Your income' })
    await app.user.click(within(income).getByRole('radio', { name: 'Monthly, after taxes' }))
    expect(field('Monthly take-home pay').value).toBe('')
    await app.next()
    expect(document.activeElement).toBe(field('Monthly take-home pay'))
    expect(screen.getByRole('alert').textContent).toBe('Please correct the 2 highlighted fields.')
  })

  test('the SSN is masked, with a show toggle (aria-pressed), typed digits shown ###-##-####, never autofilled', async () => {
    server.use(consentRoute())
    const app = renderApplication({ prefill: PREFILL })
    await app.toLastStep()
    const ssn = field('Social Security number')
    expect(ssn.value).toBe('987-65-4320')
    expect([ssn.type, ssn.getAttribute('autocomplete'), ssn.getAttribute('inputmode')]).toEqual([
      'password',
      'off',
      'numeric',
    ])
    expect(descriptionOf(ssn)).toBe(DEFAULT_LOAN_LABELS.loanSsnHint)
    const toggle = screen.getByRole('button', { name: 'Show number' })
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    await app.user.click(toggle)
    expect([ssn.type, toggle.getAttribute('aria-pressed')]).toEqual(['text', 'true'])
    await app.user.clear(ssn)
    await app.user.type(ssn, '123456789999')
    expect(ssn.value).toBe('123-45-6789')
    await app.user.click(toggle)
    expect(ssn.type).toBe('password')
  })
})

describe('labels and CSS', () => {
  test('es-US labels render, and the widget labels prop may hold other keys', async () => {
    server.use(consentRoute())
    const app = renderApplication({ labels: { ...LOAN_LABELS_ES_US, heading: 'x' } as never })
    expect(screen.getByRole('form', { name: 'Encuentre sus ofertas de préstamo' })).toBeTruthy()
    expect(screen.getByText('Paso 1 de 5')).toBeTruthy()
    await app.user.click(screen.getByRole('button', { name: 'Continuar' }))
    expect(screen.getByRole('alert').textContent).toBe('Corrija los 2 campos marcados.')
    expect(descriptionOf(field('¿Para qué es el préstamo?'))).toBe('Elija para qué es el préstamo.')
    expect(
      within(field('¿Para qué es el préstamo?')).getByRole('option', { name: 'Consolidación de deudas' }),
    ).toBeTruthy()
  })

  test('es-US translates every label, and no loan key means something else among the widget labels', () => {
    const same = Object.keys(DEFAULT_LOAN_LABELS).filter(
      (key) =>
        LOAN_LABELS_ES_US[key as keyof typeof LOAN_LABELS_ES_US] ===
        DEFAULT_LOAN_LABELS[key as keyof typeof DEFAULT_LOAN_LABELS],
    )
    // The same in both languages: the dollar sign, and words Spanish borrows.
    expect(same.sort()).toEqual(['loanDollar'])
    expect(Object.keys(DEFAULT_LOAN_LABELS).filter((key) => key in DEFAULT_LABELS)).toEqual([])
  })

  test('its sheet goes in once per root, under its own marker, with the nonce', () => {
    for (const sheet of document.head.querySelectorAll('style[data-offer-widget-loan-styles]')) sheet.remove()
    server.use(consentRoute())
    renderApplication({ nonce: 'n0nce' })
    renderApplication({ nonce: 'n0nce' })
    const sheets = document.head.querySelectorAll('style[data-offer-widget-loan-styles]')
    expect(sheets).toHaveLength(1)
    expect((sheets[0] as HTMLStyleElement).nonce).toBe('n0nce')
  })

  test("every rule of its sheet is scoped under .ow-root, as the widget's own sheet is", () => {
    const css = readFileSync('src/widget/loan-application/loan-application.css', 'utf8')
    const selectors = css
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .match(/[^{}]+(?=\{)/g)
      ?.filter((s) => !s.trim().startsWith('@'))
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
    expect(selectors?.length).toBeGreaterThan(20)
    expect(selectors?.filter((s) => !s.startsWith('.ow-root '))).toEqual([])
  })
})
