/**
 * @module The pages the cross-engine suite opens, with an error collector in every document: the BFF's own
 * pages (demo, `?ssr=1`, playground) through a second listener on the same app that adds it, a publisher
 * page on its own origin, and a tracker on a third; plus the page that shows any of them in an iframe of a
 * phone's width (MiniBrowser's window will not go below about 447 px).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { createSandbox } from '../../../src/sandbox/index.ts'

/** Where the collector keeps what it saw; the suite reads it in every frame. */
export const ERRORS_GLOBAL = '__engineErrors'

/**
 * Uncaught errors and unhandled rejections of the document it is the first script of. WebKit's console
 * cannot be read over WebDriver, so the page itself keeps them. Resource errors do not bubble to window,
 * so a failed image is not counted (the pixels are counted at their server instead).
 */
const ERROR_COLLECTOR = `<script>(function () {
  var seen = (window.${ERRORS_GLOBAL} = [])
  function text(x) { try { return x && x.stack ? String(x.stack) : String(x) } catch (_) { return '?' } }
  addEventListener('error', function (e) {
    seen.push('error: ' + e.message + ' at ' + e.filename + ':' + e.lineno + (e.error ? ' ' + text(e.error) : ''))
  })
  addEventListener('unhandledrejection', function (e) { seen.push('unhandledrejection: ' + text(e.reason)) })
})()</script>`

/** The collector as the first thing in `<head>`, before any script of the page. */
function withCollector(html: string): string {
  const head = /<head[^>]*>/i.exec(html)
  if (!head) return ERROR_COLLECTOR + html
  const at = head.index + head[0].length
  return html.slice(0, at) + ERROR_COLLECTOR + html.slice(at)
}

const NARROW_PATH = '/__engines/narrow.html'
export const NARROW_FRAME = '#engine-frame'

/**
 * `src` (a path on the same origin, so the test reaches into it) in an iframe `width` px wide: the page's
 * media queries and layout see a `width` px viewport, in every engine alike.
 */
function narrowPage(src: string, width: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${width} px</title>${ERROR_COLLECTOR}
<style>body{margin:0;background:#d9dde4}iframe{display:block;border:0;width:${width}px;height:1600px;background:#fff}</style>
</head><body><iframe id="${NARROW_FRAME.slice(1)}" title="the page at ${width} px" src="${src}"></iframe></body></html>`
}

/** The narrow page for a request to {@link NARROW_PATH}, or undefined for any other path. */
function narrowFor(url: URL): string | undefined {
  if (url.pathname !== NARROW_PATH) return undefined
  const src = url.searchParams.get('src') ?? ''
  const width = Number(url.searchParams.get('width'))
  // Only paths on this origin: the test reads the framed document.
  if (!src.startsWith('/') || src.startsWith('//') || !(width >= 200 && width <= 2000)) {
    throw new Error(`engines: bad narrow page request ${url.search}`)
  }
  return narrowPage(src, width)
}

export const narrowUrl = (origin: string, path: string, width: number) =>
  `${origin}${NARROW_PATH}?width=${width}&src=${encodeURIComponent(path)}`

function listening(server: Server | ServerType): Promise<string> {
  return new Promise((resolve) => {
    const done = () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    if (server.listening) done()
    else server.once('listening', done)
  })
}

const closeServer = (server: Server | ServerType) =>
  new Promise<void>((done) => {
    ;(server as Server).closeAllConnections?.()
    server.close(() => done())
  })

export interface Front {
  url: string
  close(): Promise<void>
}

/**
 * The BFF's app on a second loopback listener whose HTML answers carry the collector; everything else is
 * the app's own answer, untouched (links in answers still point at the BFF's own listener).
 */
export async function collectingFront(app: {
  fetch(request: Request, env?: unknown): Response | Promise<Response>
}): Promise<Front> {
  const server = serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request, env) => {
      const narrow = narrowFor(new URL(request.url))
      if (narrow) return new Response(narrow, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      // A document is asked for unencoded, so the collector can be written into it; scripts and styles keep
      // the browser's Accept-Encoding (the BFF serves them precompressed).
      const document = request.headers.get('accept')?.startsWith('text/html') === true
      const headers = new Headers(request.headers)
      if (document) headers.delete('accept-encoding')
      const response = await app.fetch(document ? new Request(request, { headers }) : request, env)
      if (!response.headers.get('content-type')?.startsWith('text/html')) return response
      const answer = new Headers(response.headers)
      answer.delete('content-length')
      return new Response(withCollector(await response.text()), { status: response.status, headers: answer })
    },
  })
  return { url: await listening(server), close: () => closeServer(server) }
}

const FINAL_HOP = 'hop=final'

export interface Tracker {
  url: string
  /** Impression pixels asked for (the first hop, answered with a 302), by URL. */
  firstHops: Map<string, number>
  /** Landing pages reached, by path and query. */
  landings: Map<string, number>
  /** Final hops of pixels, by URL, as the sandbox counted them. */
  finalHits(): Record<string, number>
  close(): Promise<void>
}

/**
 * The sandbox behind a front as real ad-tech trackers are: every impression pixel is a 302 to its final
 * hop, and no CORS or CORP header is sent (as in cross-origin.e2e.ts). It also counts landing pages, the
 * offers' click URLs.
 */
export async function startTracker(): Promise<Tracker> {
  const sandbox = createSandbox()
  const firstHops = new Map<string, number>()
  const landings = new Map<string, number>()
  const server = serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request) => {
      const url = new URL(request.url)
      if (
        url.pathname.startsWith('/pixels/') &&
        request.method === 'GET' &&
        !url.search.includes(FINAL_HOP)
      ) {
        firstHops.set(url.href, (firstHops.get(url.href) ?? 0) + 1)
        return new Response(null, { status: 302, headers: { location: `${url.pathname}?${FINAL_HOP}` } })
      }
      if (url.pathname.startsWith('/landing/')) {
        const key = url.pathname + url.search
        landings.set(key, (landings.get(key) ?? 0) + 1)
      }
      const response = await sandbox.app.fetch(request)
      const headers = new Headers(response.headers)
      for (const name of [...headers.keys()]) {
        if (name.startsWith('access-control-') || name === 'cross-origin-resource-policy')
          headers.delete(name)
      }
      return new Response(response.body, { status: response.status, headers })
    },
  })
  return {
    url: await listening(server),
    firstHops,
    landings,
    finalHits: () => sandbox.pixelHits(),
    close: () => closeServer(server),
  }
}

export interface Publisher {
  url: string
  /** The page at `/`; set once the BFF (whose allow-list names this origin) is up. */
  html: string
  close(): Promise<void>
}

/** A publisher's own origin: its page at `/` (with the collector) and the narrow page. */
export async function startPublisher(): Promise<Publisher> {
  const publisher: Publisher = { url: '', html: '', close: async () => {} }
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', publisher.url)
    const narrow = url.pathname === '/' ? withCollector(publisher.html) : narrowFor(url)
    if (narrow === undefined) return response.writeHead(404).end()
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(narrow)
  })
  server.listen(0, '127.0.0.1')
  publisher.url = await listening(server)
  publisher.close = () => closeServer(server)
  return publisher
}
