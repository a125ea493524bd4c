/**
 * @module `/reports`: the partner report page, its script and its stylesheet, each a route of its own so
 * the page runs under a strict Content-Security-Policy (no inline script or style, no external asset).
 */
import { Hono } from 'hono'
import { REPORT_PAGE_CSP, REPORT_PAGE_CSS, reportPageHtml, reportPageScript } from '../reports/report-page.ts'

/** Mounted at `/reports`; the page finds its script and stylesheet under whatever prefix it is served at. */
export function reportPageRoutes(): Hono {
  const app = new Hono()
  const secure = (headers: Record<string, string>) => ({
    'Content-Security-Policy': REPORT_PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
    ...headers,
  })
  app.get('/', (c) => {
    const base = c.req.path.replace(/\/reports\/?$/, '')
    return c.body(reportPageHtml(base), 200, secure({ 'Content-Type': 'text/html; charset=utf-8' }))
  })
  app.get('/app.js', async (c) =>
    c.body(await reportPageScript(), 200, secure({ 'Content-Type': 'text/javascript; charset=utf-8' })),
  )
  app.get('/app.css', (c) =>
    c.body(REPORT_PAGE_CSS, 200, secure({ 'Content-Type': 'text/css; charset=utf-8' })),
  )
  return app
}
