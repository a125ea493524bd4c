// @vitest-environment jsdom
/**
 * @module The React guide's complete `App.tsx`, rendered as written (its endpoint pointed at a real BFF, the compiled one
 * `npm run start:prod` runs, in sandbox mode): the search it describes, issuer id included, must be one the
 * API accepts, so offers show and no error does.
 */
import { cleanup, render, screen } from '@testing-library/react'
import type { ReactElement } from 'react'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEFAULT_LABELS } from '../../src/widget/index.ts'
import { block, moduleFile, REPO, type RunningBff, startCompiledBff } from './support/readme-blocks.ts'

let bff: RunningBff

beforeAll(async () => {
  bff = await startCompiledBff()
})

afterAll(async () => {
  cleanup()
  await bff?.stop()
})

describe('README: Using the widget (React)', () => {
  it('renders the example against a real BFF and shows offers', async () => {
    const { code, lang } = block('react')
    expect(lang).toBe('tsx')
    const source = code
      .replaceAll("from 'offer-widget'", `from '${REPO}/src/widget/index.ts'`)
      .replaceAll('https://your-bff.example', bff.url)
    // A complete file: its default export is the app.
    const { default: App } = (await import(moduleFile(source, 'tsx'))) as { default: () => ReactElement }
    render(<App />)
    await vi.waitFor(() => expect(screen.getAllByText(DEFAULT_LABELS.viewRate).length).toBeGreaterThan(0), {
      timeout: 30_000,
      interval: 100,
    })
    expect(screen.queryByText(DEFAULT_LABELS.error)).toBeNull()
    expect(document.body.textContent).not.toMatch(/is not an issuer id/)
  })
})
