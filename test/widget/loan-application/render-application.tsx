/**
 * @module Renders `<LoanApplication>` inside a widget root as the widget does, with a recorded `onSubmit`,
 * and walks it as a visitor would (user-event): a continue, the steps of a prefilled application.
 */
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { vi } from 'vitest'
import { consentContextSchema } from '../../../src/contract/consent.ts'
import { type LeadInput, leadInputSchema } from '../../../src/contract/partner.ts'
import {
  LoanApplication,
  type LoanApplicationProps,
} from '../../../src/widget/loan-application/LoanApplication.tsx'
import { ENDPOINT } from './loan-test-server.ts'

export function renderApplication(props: Partial<LoanApplicationProps> = {}) {
  const onSubmit = vi.fn<(lead: LeadInput) => void>()
  const base: LoanApplicationProps = { endpoint: ENDPOINT, headingLevel: 2, onSubmit, ...props }
  const element = (more: Partial<LoanApplicationProps>) => (
    <div className="ow-root">
      <LoanApplication {...base} {...more} />
    </div>
  )
  const view = render(element({}))
  const user = userEvent.setup()
  return {
    onSubmit,
    view,
    user,
    rerender: (more: Partial<LoanApplicationProps>) => view.rerender(element(more)),
    next: () => user.click(screen.getByRole('button', { name: 'Continue' })),
    /** From step 1 to the last, every step already valid (a full prefill). */
    async toLastStep() {
      for (let i = 0; i < 4; i++) await user.click(screen.getByRole('button', { name: 'Continue' }))
    },
  }
}

/** The element `aria-describedby` names, as assistive tech reads it after the field's name. */
export function descriptionOf(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? []
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
}

/**
 * Whether the BFF takes the lead: `leadInputSchema` whole, or (until the schema lists the `consent`
 * extension, src/contract/consent.ts) every field but `consent`, which `consentContextSchema` judges.
 */
export function bffAccepts(lead: LeadInput): boolean {
  const whole = leadInputSchema.safeParse(lead)
  if (whole.success) return true
  const { consent, ...rest } = lead
  return (
    whole.error.issues.every((issue) => issue.path[0] === 'consent') &&
    leadInputSchema.safeParse(rest).success &&
    consentContextSchema.safeParse(consent).success
  )
}
