/**
 * @module Reading the widget inside its shadow root (in a page, or in a frame of one) from a test: its
 * status, offers and disclaimers, and waiting (on conditions, never on time) for it to reach a state.
 */
import type { Frame, Page } from 'playwright-core'

/** A page, or a frame in one (the playground's preview frame). */
export type WidgetDocument = Page | Frame

export interface WidgetView {
  status: string | undefined
  carriers: string[]
  offerUuids: string[]
  headlines: string[]
  disclaimers: string[]
  links: { uuid: string; href: string }[]
  empty: boolean
  error: boolean
}

/** The widget's state as seen in the page; `selector` is the mount point. */
export function readWidget(
  page: WidgetDocument,
  selector = '[data-offer-widget]',
): Promise<WidgetView | null> {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel)?.shadowRoot?.querySelector<HTMLElement>('.ow-root')
    if (!root) return null
    const texts = (q: string) => [...root.querySelectorAll(q)].map((e) => e.textContent?.trim() ?? '')
    const cards = [...root.querySelectorAll<HTMLElement>('.ow-card')]
    return {
      status: root.dataset.owStatus,
      carriers: texts('.ow-card .ow-carrier'),
      offerUuids: cards.map((c) => c.dataset.offerUuid ?? ''),
      headlines: texts('.ow-card .ow-headline'),
      disclaimers: texts('.ow-disclaimer'),
      links: cards.map((c) => ({
        uuid: c.dataset.offerUuid ?? '',
        href: c.querySelector<HTMLAnchorElement>('a.ow-cta')?.href ?? '',
      })),
      empty: root.querySelector('.ow-empty') !== null,
      error: root.querySelector('.ow-error') !== null,
    }
  }, selector)
}

/** Waits until the widget's root reports one of `statuses` (`data-ow-status`). */
export async function waitForStatus(
  page: WidgetDocument,
  statuses: string[],
  selector = '[data-offer-widget]',
  timeout = 30_000,
): Promise<void> {
  await page.waitForFunction(
    ([sel, wanted]) => {
      const root = document.querySelector(sel as string)?.shadowRoot?.querySelector<HTMLElement>('.ow-root')
      return root !== null && root !== undefined && (wanted as string[]).includes(root.dataset.owStatus ?? '')
    },
    [selector, statuses] as const,
    { timeout, polling: 100 },
  )
}

/**
 * Records layout shifts from the first paint on; read them with {@link readCls}. A shift whose sources are
 * all inside a shadow root (Chrome reports such nodes as null) or inside `hostSelector` is the widget's own.
 */
export async function observeLayoutShifts(page: Page, hostSelector = '[data-offer-widget]'): Promise<void> {
  await page.addInitScript((host) => {
    const w = window as unknown as {
      __shifts: { value: number; at: number; page: boolean }[]
      __shiftObserver: PerformanceObserver
      __recordShifts: (entries: PerformanceEntry[]) => void
    }
    w.__shifts = []
    const record = (entries: PerformanceEntry[]) => {
      for (const entry of entries as (PerformanceEntry & {
        value: number
        hadRecentInput: boolean
        sources?: { node?: Node | null }[]
      })[]) {
        if (entry.hadRecentInput) continue
        const page = (entry.sources ?? []).some(
          (s) => s.node?.isConnected && !(s.node instanceof Element && s.node.closest(host)),
        )
        w.__shifts.push({ value: entry.value, at: Math.round(entry.startTime), page })
      }
    }
    // readCls drains, with takeRecords(), entries not delivered to the callback yet.
    w.__recordShifts = record
    w.__shiftObserver = new PerformanceObserver((list) => record(list.getEntries()))
    w.__shiftObserver.observe({ type: 'layout-shift', buffered: true })
  }, hostSelector)
}

export interface LayoutShifts {
  /** Chrome's CLS: the sum of every shift without recent input, those inside the widget's shadow root included. */
  cls: number
  /** The part caused by the publisher's own content moving. */
  pageCls: number
  shifts: { value: number; at: number; page: boolean }[]
}

/** After two more frames are rendered (so the last change has been painted and scored), all shifts so far. */
export function readCls(page: Page): Promise<LayoutShifts> {
  return page.evaluate(async () => {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
    const w = window as unknown as {
      __shifts: LayoutShifts['shifts']
      __shiftObserver: PerformanceObserver
      __recordShifts: (entries: PerformanceEntry[]) => void
    }
    w.__recordShifts(w.__shiftObserver.takeRecords())
    const shifts = w.__shifts
    const sum = (list: LayoutShifts['shifts']) => list.reduce((n, s) => n + s.value, 0)
    return { cls: sum(shifts), pageCls: sum(shifts.filter((s) => s.page)), shifts }
  })
}

/**
 * Samples every animation frame from the first paint on: any two visible offer cards (or skeletons) whose
 * drawn boxes (transforms included) overlap while neither is animating are recorded; read them with
 * {@link readOverlaps}. During a slide a newcomer may be drawn over the card moving away from its place
 * (it is drawn on top, layout-flip.ts), but once every move has ended nothing overlaps.
 */
export async function watchOverlaps(page: Page, hostSelector = '[data-offer-widget]'): Promise<void> {
  await page.addInitScript((host) => {
    const w = window as unknown as { __overlaps: string[] }
    w.__overlaps = []
    const frame = () => {
      const root = document.querySelector(host)?.shadowRoot
      const boxes = [...(root?.querySelectorAll<HTMLElement>('.ow-offers > li') ?? [])]
        .filter(
          (li) => Number(getComputedStyle(li).opacity) > 0.01 && getComputedStyle(li).visibility !== 'hidden',
        )
        .filter((li) => li.getAnimations().length === 0)
        .map((li) => ({ key: li.dataset.owFlip ?? '', r: li.getBoundingClientRect() }))
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]?.r as DOMRect
          const b = boxes[j]?.r as DOMRect
          // One pixel of tolerance for sub-pixel rounding.
          if (a.top < b.bottom - 1 && b.top < a.bottom - 1 && a.left < b.right - 1 && b.left < a.right - 1) {
            w.__overlaps.push(`${boxes[i]?.key} x ${boxes[j]?.key} at ${Math.round(performance.now())}`)
          }
        }
      }
      requestAnimationFrame(frame)
    }
    requestAnimationFrame(frame)
  }, hostSelector)
}

export function readOverlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __overlaps: string[] }).__overlaps.slice(0, 10))
}
