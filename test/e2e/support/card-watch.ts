/**
 * @module In-page probes for offer cards, for the visitor-facing e2e suites: whether any card text is cut
 * with no way to see the rest (overflows its box or its card, ends in an ellipsis, or is clamped in a card
 * with no "More details" to open), and a watcher that stamps each card's entry (MutationObserver) and
 * samples every 50 ms whether it is readable: connected, laid out, fully opaque up to the page, visible. A
 * card on the page must stay readable; one that leaves the list (a better-ranked offer took its place; it
 * is behind "Show N more") is recorded apart. Read the record with {@link readCardWatch}.
 */
import type { Page } from 'playwright-core'

/** Every card text problem in the widget at `host`: `[]` when every text is whole. */
export function cardTextProblems(page: Page, host = '[data-offer-widget]'): Promise<string[]> {
  return page.evaluate((selector) => {
    const root = document.querySelector(selector)?.shadowRoot
    const problems: string[] = []
    for (const card of root?.querySelectorAll<HTMLElement>('.ow-card') ?? []) {
      const box = card.getBoundingClientRect()
      // Collapsed with "More details" to open: long copy may be clamped, the whole text one tap away.
      const openable = card.querySelector('.ow-toggle[aria-expanded="false"]') !== null
      for (const element of card.querySelectorAll<HTMLElement>('*')) {
        if (element.closest('.ow-visually-hidden')) continue
        const ownText = [...element.childNodes]
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => node.textContent ?? '')
          .join('')
          .trim()
        if (ownText === '') continue
        const style = getComputedStyle(element)
        const name = `${element.tagName.toLowerCase()}.${element.className} "${ownText.slice(0, 30)}"`
        const rect = element.getBoundingClientRect()
        if (ownText.endsWith('…') || ownText.endsWith('...')) problems.push(`${name}: ends in an ellipsis`)
        if (style.textOverflow === 'ellipsis') problems.push(`${name}: text-overflow ellipsis`)
        const clamp = style.getPropertyValue('-webkit-line-clamp')
        if (clamp && clamp !== 'none' && !openable)
          problems.push(`${name}: line-clamp ${clamp}, no "More details"`)
        if (style.display !== 'inline') {
          if (element.scrollWidth > element.clientWidth + 1) problems.push(`${name}: overflows its width`)
          if (element.scrollHeight > element.clientHeight + 1 && !openable)
            problems.push(`${name}: overflows its height`)
        }
        if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5)
          problems.push(`${name}: outside its card`)
      }
    }
    return problems
  }, host)
}

export interface CardWatch {
  /** Per card uuid: ms from entering the page to the first readable sample. */
  readableAfter: Record<string, number>
  /** Cards readable once that were later hidden, faded or not laid out while still in the list (with when). */
  lost: string[]
  /** Cards that left the list (uuids): a better-ranked offer took their place. */
  left: string[]
  /**
   * Cards added and gone again between two 50 ms samples (never seen readable): drawn for less than 50 ms,
   * reported; one still on screen at the end fails the test.
   */
  flashed: string[]
  /** Cards that never became readable. */
  neverReadable: string[]
}

/** Installs the watcher before the page's scripts run. */
export async function watchCards(page: Page, host = '[data-offer-widget]'): Promise<void> {
  await page.addInitScript((selector) => {
    const entered = new Map<string, number>()
    const readable = new Map<string, number>()
    const lost: string[] = []
    const left = new Set<string>()
    const flashed = new Set<string>()
    const cards = new Map<string, HTMLElement>()
    let observed: ShadowRoot | undefined
    const stamp = (node: Node) => {
      if (!(node instanceof HTMLElement)) return
      for (const card of [node, ...node.querySelectorAll<HTMLElement>('*')]) {
        const uuid = card.classList.contains('ow-card') ? card.dataset.offerUuid : undefined
        if (uuid && !entered.has(uuid)) entered.set(uuid, performance.now())
        if (uuid) cards.set(uuid, card)
      }
    }
    const isReadable = (card: HTMLElement) => {
      if (!card.isConnected) return false
      const rect = card.getBoundingClientRect()
      if (rect.width < 1 || rect.height < 1) return false
      if (getComputedStyle(card).visibility !== 'visible') return false
      let node: Node | null = card
      while (node) {
        if (node instanceof Element && Number(getComputedStyle(node).opacity) < 1) return false
        node = node instanceof ShadowRoot ? node.host : node.parentNode
      }
      return true
    }
    const sample = () => {
      const root = document.querySelector(selector)?.shadowRoot ?? undefined
      if (root && root !== observed) {
        observed = root
        stamp(root as unknown as Node)
        for (const child of root.children) stamp(child)
        new MutationObserver((records) => {
          for (const record of records) for (const node of record.addedNodes) stamp(node)
        }).observe(root, { childList: true, subtree: true })
      }
      const now = performance.now()
      for (const [uuid, card] of cards) {
        const current = root?.querySelector<HTMLElement>(`.ow-card[data-offer-uuid="${uuid}"]`) ?? card
        if (!current.isConnected) {
          if (readable.has(uuid)) left.add(uuid)
          else flashed.add(uuid)
          continue
        }
        left.delete(uuid)
        if (isReadable(current)) {
          // Back as a new element (the same offer): it did not flash, it was redrawn.
          flashed.delete(uuid)
          if (!readable.has(uuid)) readable.set(uuid, now)
        } else if (readable.has(uuid)) {
          lost.push(`${uuid} at ${Math.round(now)} ms`)
        }
      }
    }
    setInterval(sample, 50)
    Object.assign(window, {
      // A last sample first: a card drawn in the commit just before this read was never sampled yet.
      __cardWatch: () => {
        sample()
        return {
          readableAfter: Object.fromEntries(
            [...readable].map(([uuid, at]) => [uuid, Math.round(at - (entered.get(uuid) ?? at))]),
          ),
          lost,
          left: [...left],
          flashed: [...flashed],
          neverReadable: [...entered.keys()].filter((uuid) => !readable.has(uuid) && !flashed.has(uuid)),
        }
      },
    })
  }, host)
}

export function readCardWatch(page: Page): Promise<CardWatch> {
  return page.evaluate(() => (window as unknown as { __cardWatch: () => CardWatch }).__cardWatch())
}
