/**
 * @module Time to the first offer card on the demo page (sandbox ZIP 00001), client-rendered (`/demo.html`)
 * against server-rendered (`/demo.html?ssr=1`), in one run: the real BFF as `npm start` serves it, 5 cold
 * loads of each in turn, a fresh Chromium profile per load. "First card" is the first moment (checked every
 * 4 ms) a card exists in the widget's shadow root, timed from navigation start. CLS is Chrome's score
 * of every layout shift (the widget's shadow root included) from the first paint until the search
 * completes. Needs `npm run build`.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../src/server/config.ts'
import { startServer } from '../src/server/start-server.ts'
import { launchBrowser } from '../test/e2e/support/browser.ts'

const RUNS = 5
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
if (
  !existsSync(join(root, 'dist/ssr/render-widget-html.js')) ||
  !existsSync(join(root, 'dist/embed/manifest.json'))
) {
  console.error('ssr bench: run npm run build first (dist/ssr and dist/embed are missing)')
  process.exit(1)
}

const server = await startServer(
  loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_POINTS: '100000' }),
  {
    secondLook: false,
  },
)

async function firstCardMs(path: string): Promise<{ firstCard: number; cls: number }> {
  const browser = await launchBrowser()
  try {
    const tab = await browser.context.newPage()
    await tab.addInitScript(() => {
      const w = window as unknown as { __firstCard?: number; __cls: number }
      w.__cls = 0
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
          w.__cls += entry.value
      }).observe({ type: 'layout-shift', buffered: true })
      // A 4 ms check from the first script on (animation frames do not start before the first paint here).
      const timer = setInterval(() => {
        const card = document.querySelector('[data-offer-widget]')?.shadowRoot?.querySelector('.ow-card')
        if (!card) return
        w.__firstCard = performance.now()
        clearInterval(timer)
      }, 4)
    })
    await tab.goto(`${server.url}${path}`)
    await tab.waitForFunction(
      () => (window as { __firstCard?: number }).__firstCard !== undefined,
      undefined,
      {
        timeout: 20_000,
        polling: 50,
      },
    )
    const firstCard = await tab.evaluate(() => (window as unknown as { __firstCard: number }).__firstCard)
    await tab.waitForFunction(
      () =>
        document
          .querySelector('[data-offer-widget]')
          ?.shadowRoot?.querySelector('[data-ow-status="complete"]') !== null,
      undefined,
      { timeout: 20_000, polling: 100 },
    )
    // Two frames, so the last change is painted and scored.
    const cls = await tab.evaluate(async () => {
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
      return (window as unknown as { __cls: number }).__cls
    })
    return { firstCard, cls }
  } finally {
    await browser.close()
  }
}

const variants = [
  {
    name: 'client-rendered (`/demo.html?zip=00001`)',
    path: '/demo.html?zip=00001',
    times: [] as number[],
    cls: [] as number[],
  },
  {
    name: 'server-rendered (`/demo.html?ssr=1&zip=00001`)',
    path: '/demo.html?ssr=1&zip=00001',
    times: [] as number[],
    cls: [] as number[],
  },
]
try {
  // In turn, so both meet the same machine load.
  for (let i = 0; i < RUNS; i++)
    for (const variant of variants) {
      const { firstCard, cls } = await firstCardMs(variant.path)
      variant.times.push(firstCard)
      variant.cls.push(cls)
    }
} finally {
  await server.close()
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
console.log(
  `| Time to first offer card, ${RUNS} cold loads each | Median | Best | Worst | Runs | CLS to search complete (worst) |`,
)
console.log('|---|---:|---:|---:|---|---:|')
for (const v of variants) {
  console.log(
    `| ${v.name} | ${median(v.times).toFixed(0)} ms | ${Math.min(...v.times).toFixed(0)} ms | ${Math.max(...v.times).toFixed(0)} ms | ${v.times.map((t) => t.toFixed(0)).join(', ')} | ${Math.max(...v.cls).toFixed(2)} |`,
  )
}
