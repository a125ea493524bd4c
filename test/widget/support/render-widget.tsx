/**
 * @module `<OfferWidget>` rendered against msw handlers (a fake BFF or a playground scenario) with the
 * test endpoint, a ZIP code so it searches at once, and a pixel tracker that fires nothing.
 */
import { render } from '@testing-library/react'
import type { RequestHandler } from 'msw'
import { OfferWidget, type OfferWidgetProps } from '../../../src/widget/index.ts'
import { createPixelTracker } from '../../../src/widget/pixel-tracker.ts'
import { ENDPOINT, server } from './widget-tests.ts'

export function renderWidget(handlers: RequestHandler[], props: Partial<OfferWidgetProps> = {}) {
  server.use(...handlers)
  return render(
    <OfferWidget
      endpoint={ENDPOINT}
      search={{ zipCode: '94107' }}
      pixelTracker={createPixelTracker(() => {})}
      {...props}
    />,
  )
}
