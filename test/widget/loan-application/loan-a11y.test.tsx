/**
 * @module WCAG 2.2 AA checks with axe-core on every step of the application, with errors showing and with
 * the consent texts, as test/widget/a11y.test.tsx checks the widget. jsdom computes no colours, so
 * `color-contrast` is off (the application draws with the widget's `--ow-*` colours); page-level rules a
 * widget cannot meet alone are off too.
 */
import { screen } from '@testing-library/react'
import axe from 'axe-core'
import { expect, test, vi } from 'vitest'
import { CONSENT_TEXTS, LEAD } from './loan-fixtures.ts'
import { consentRoute, server, setupLoanTests } from './loan-test-server.ts'
import { renderApplication } from './render-application.tsx'

setupLoanTests()
// A full axe audit in jsdom is CPU-bound; on a shared 2-core runner a cold one takes seconds.
vi.setConfig({ testTimeout: 30_000 })

async function violations(container: HTMLElement): Promise<string[]> {
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

test('step 1 with its errors, every step answered, and the consent step with its texts and the FCRA error', async () => {
  server.use(consentRoute())
  const app = renderApplication()
  const { container } = app.view
  const found: string[] = []
  await app.next()
  found.push(...(await violations(container)))
  app.view.unmount()
  const { legalInformation: _, ...prefill } = LEAD
  const filled = renderApplication({ prefill })
  for (let step = 1; step <= 5; step++) {
    if (step === 5) await screen.findByRole('checkbox', { name: CONSENT_TEXTS.fcra.text })
    found.push(...(await violations(filled.view.container)))
    if (step < 5) await filled.next()
  }
  await filled.user.click(screen.getByRole('button', { name: 'See my loan offers' }))
  found.push(...(await violations(filled.view.container)))
  expect(found).toEqual([])
})
