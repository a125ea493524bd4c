/**
 * @module `/reports`: the partner report page, its script and its stylesheet, each a route of its own so
 * the page runs under a strict Content-Security-Policy (no inline script or style, no external asset).
 */
import type { Hono } from 'hono'
import { REPORT_PAGE_CSP, REPORT_PAGE_CSS, REPORT_PAGE_JS, reportPageHtml } from '../reports/report-page.ts'

// biome-ignore lint/suspicious/noExplicitAny: the routes fit an app of any Env
export function registerReportPage(app: Hono<any, any, any>): void {
  const secure = (headers: Record<string, string>) => ({
    'Content-Security-Policy': REPORT_PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
    ...headers,
  })
  app.get('/reports', (c) => {
    const base = c.req.path.replace(/\/reports\/?$/, '')
    return c.body(reportPageHtml(base), 200, secure({ 'Content-Type': 'text/html; charset=utf-8' }))
  })
  app.get('/reports/app.js', (c) =>
    c.body(REPORT_PAGE_JS, 200, secure({ 'Content-Type': 'text/javascript; charset=utf-8' })),
  )
  app.get('/reports/app.css', (c) =>
    c.body(REPORT_PAGE_CSS, 200, secure({ 'Content-Type': 'text/css; charset=utf-8' })),
  )
}
