/**
 * @module WCAG 2.2 AA checks with axe-core on the rendered widget in every state. jsdom cannot compute
 * colours, so `color-contrast` is the one rule disabled (contrast of the presets is checked in the
 * browser e2e run); page-level best practices that a widget cannot meet alone (landmarks, an h1) are off.
 */
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import axe from 'axe-core'
import { http } from 'msw'
import { describe, expect, test, vi } from 'vitest'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { OfferWidget, type OfferWidgetProps } from '../../src/widget/index.ts'
import { renderWidget } from './support/render-widget.tsx'
import { advance, ENDPOINT, server, setupWidgetTests } from './support/widget-tests.ts'

setupWidgetTests()
// A full axe audit in jsdom is CPU-bound; on a shared 2-core runner the first (cold) one takes seconds.
vi.setConfig({ testTimeout: 20_000 })

async function violations(container: HTMLElement): Promise<string[]> {
  // axe schedules its own work on timers: give it the real clock for the audit.
  vi.useRealTimers()
  const result = await axe.run(container, {
    runOnly: {
      type: 'tag',
      values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
    },
    rules: {
      'color-contrast': { enabled: false },
      region: { enabled: false },
      'page-has-heading-one': { enabled: false },
      'landmark-one-main': { enabled: false },
    },
  })
  return result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  )
}

function mount(name: keyof typeof scenarios, props: Partial<OfferWidgetProps> = {}) {
  return renderWidget(scenarios[name].create().handlers, props)
}

describe('axe reports no violation', () => {
  test('form, with the insurers opened', async () => {
    const { container } = mount('happyPath', { search: {} })
    await advance()
    // Closed, the form is checked by the test below.
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
    await user.click(screen.getByRole('radio', { name: 'Currently insured' }))
    expect(screen.getByRole('radio', { name: 'Acme Mutual' })).toBeTruthy()
    expect(await violations(container)).toEqual([])
  })

  test('form with inline errors', async () => {
    const { container } = mount('happyPath', { search: {} })
    await advance()
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
    await user.click(screen.getByRole('button', { name: 'See my rates' }))
    expect(screen.getByLabelText('ZIP code').getAttribute('aria-invalid')).toBe('true')
    expect(await violations(container)).toEqual([])
  })

  test('starting (before the first rate table)', async () => {
    const bff = scenarios.happyPath.create()
    server.use(...bff.handlers)
    server.use(http.post('*/api/offer-searches', () => new Promise<Response>(() => {})))
    const { container } = render(<OfferWidget endpoint={ENDPOINT} search={{ zipCode: '94107' }} />)
    await advance()
    expect(screen.getByRole('progressbar')).toBeTruthy()
    expect(await violations(container)).toEqual([])
  })

  test('searching, with offers arriving', async () => {
    const { container } = mount('offersOverTime')
    await advance(4000)
    expect(screen.getByRole('progressbar')).toBeTruthy()
    expect(await violations(container)).toEqual([])
  })

  test('complete, with disclaimers', async () => {
    const { container } = mount('disclaimers')
    await advance(5000)
    expect(container.querySelectorAll('.ow-disclaimer').length).toBeGreaterThan(0)
    expect(await violations(container)).toEqual([])
  })

  test('complete, with very long copy', async () => {
    const { container } = mount('longCopy')
    await advance(2000)
    expect(await violations(container)).toEqual([])
  })

  test('complete with no offers', async () => {
    const { container } = mount('noOffers')
    await advance(3000)
    expect(await violations(container)).toEqual([])
  })

  test('error, with "Try again"', async () => {
    const { container } = mount('persistentServerError')
    await advance(16_000)
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
    expect(await violations(container)).toEqual([])
  })

  test('dark theme, unsafe and unmonetized offers', async () => {
    const { container } = mount('unmonetizedOffers', { theme: 'dark' })
    await advance(1000)
    expect(await violations(container)).toEqual([])
  })
})

test('a failing rule is reported (the audit is live)', async () => {
  const bff = scenarios.happyPath.create()
  server.use(...bff.handlers)
  const { container } = render(
    <div>
      {/* biome-ignore lint/a11y/useAltText: the violation this test expects axe to catch */}
      <img src="https://x.example/a.png" />
    </div>,
  )
  expect(await violations(container)).not.toEqual([])
})
