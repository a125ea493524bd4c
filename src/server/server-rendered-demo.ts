/**
 * @module `/demo.html?ssr=1`: the demo page with its widget rendered on the server for the visitor asking
 * for it. The search is created for that request's own IP address and user agent (it is the visitor's live
 * session) under the same per-IP limit as `POST /api/offer-searches`; any failure serves the ordinary
 * client-rendered page instead, so the demo never breaks on it.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { createSearch } from '../bff/create-search.ts'
import type { BffServices } from '../bff/services.ts'
import type { CreatedSearch } from '../contract/bff.ts'
import { isDeclaredBot } from '../contract/declared-bot.ts'
import { createdSearchBody } from '../http/search-resource.ts'
import type { RenderWidgetHtml } from '../publisher/widget-renderer.ts'
import type { DemoParams } from './embed-assets.ts'

export function serverRenderedDemo(services: BffServices, render: RenderWidgetHtml) {
  const limit = services.perIpRateLimit('/demo.html?ssr=1')
  return async function renderDemoWidget(c: Context, params: DemoParams): Promise<string | undefined> {
    // Without a ZIP the widget asks for it first: nothing to search, so nothing to render on the server.
    if (!params.zip) return undefined
    // A crawler following the link would run a billed search: it gets the client-rendered page.
    if (!services.config.sandboxMode && isDeclaredBot(c.req.header('user-agent'))) return undefined
    try {
      let html: string | undefined
      await limit(c, async () => {
        const search = await createSearch(services, services.clientIdentity(c), {
          personalInformation: { zipCode: params.zip },
        })
        const created = JSON.parse(createdSearchBody(services.accessTokens, search)) as CreatedSearch
        html = render({
          endpoint: '',
          id: 'offer-widget',
          theme: params.theme,
          form: params.form,
          attach: {
            uuid: created.rateTable.uuid,
            accessToken: created.accessToken,
            rateTable: created.rateTable,
          },
        })
      })
      return html
    } catch (error) {
      // An HTTPException carries a Response, which the logger cannot serialise: its status and message say it.
      const detail =
        error instanceof HTTPException ? { status: error.status, reason: error.message } : { err: error }
      services.logger.warn(detail, 'demo: server rendering failed; serving the client-rendered page')
      return undefined
    }
  }
}
